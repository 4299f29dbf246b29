import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and
 * the base64 of 24 to 64 random bytes; the signature is `v1,` and the base64 HMAC-SHA256,
 * keyed with those bytes, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a secret, or null when it is not a valid `whsec_` secret of 24 to 64 bytes. */
export function secretKey(secret: string): Buffer | null {
  if (!SECRET_PATTERN.test(secret)) return null;
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('invalid webhook secret');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one delivery attempt. */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
