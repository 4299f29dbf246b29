import { createHmac } from 'node:crypto';

import { newWebhookSecret, secretKey, signWebhook, webhookHeaders } from '../../src/webhooks/webhook-signature';
import { isPrivateAddress, resolvesPrivate, targetProblem } from '../../src/webhooks/webhook-target';

describe('webhook targets', () => {
  it.each([
    'http://localhost/x',
    'http://api.localhost:8080/',
    'http://127.0.0.1:9000/',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses %s unless private targets are allowed', (url) => {
    expect(targetProblem(url, false)).toBe('url must not point to a loopback, private or link-local address');
    expect(targetProblem(url, true)).toBeNull();
  });

  it('accepts public http(s) URLs and refuses other schemes, credentials and long URLs whatever the setting', () => {
    expect(targetProblem('https://hooks.example.com/atrium?x=1', false)).toBeNull();
    expect(targetProblem('http://8.8.8.8/hook', false)).toBeNull();
    for (const allow of [false, true]) {
      expect(targetProblem('file:///etc/passwd', allow)).toBe('url must be an absolute http or https URL');
      expect(targetProblem('/relative', allow)).toBe('url must be an absolute http or https URL');
      expect(targetProblem('https://a:b@example.com/', allow)).toBe('url must not contain credentials');
      expect(targetProblem(`https://example.com/${'x'.repeat(2048)}`, allow)).toBe('url must be at most 2048 characters');
    }
  });

  it('checks at delivery where a name resolves (localhost from the hosts file; literals without a lookup)', async () => {
    await expect(resolvesPrivate('http://localhost:9/x')).resolves.toBe(true);
    await expect(resolvesPrivate('http://127.0.0.1:9/x')).resolves.toBe(true);
    await expect(resolvesPrivate('http://8.8.8.8/x')).resolves.toBe(false);
    await expect(resolvesPrivate('http://[::1]:9/x')).resolves.toBe(true);
  });

  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('not-an-ip')).toBe(false);
  });
});

describe('Standard Webhooks signatures', () => {
  it('signs id.timestamp.body with the base64-decoded secret and prefixes v1', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"type":"memory.stored"}';
    const expected = createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'))
      .update(`msg_1.1700000000.${body}`)
      .digest('base64');
    expect(signWebhook(secret, 'msg_1', 1700000000, body)).toBe(`v1,${expected}`);
    expect(webhookHeaders(secret, 'msg_1', 1700000000, body)).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': `v1,${expected}`,
    });
  });

  it('generates secrets of 32 bytes and refuses malformed ones', () => {
    const secret = newWebhookSecret();
    expect(secretKey(secret)?.length).toBe(32);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(secretKey('whsec_short')).toBeNull();
    expect(secretKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBeNull();
    expect(() => signWebhook('nope', 'id', 1, 'b')).toThrow('invalid webhook secret');
  });
});
