import { hashApiKey, looksLikeApiKey, lookupPrefix, mintApiKey, sameBytes, sameSecret } from '../../src/auth/api-key-secret';

describe('API key secrets', () => {
  it('mints atr_ + 32 random bytes in base64url, with its SHA-256 and a lookup prefix', () => {
    const a = mintApiKey();
    const b = mintApiKey();
    expect(a.key).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(sameBytes(a.hash, hashApiKey(a.key))).toBe(true);
    expect(a.hash).toHaveLength(32);
    expect(a.prefix).toBe(lookupPrefix(a.key));
    expect(a.key.startsWith(`atr_${a.prefix}`)).toBe(true);
    expect(looksLikeApiKey(a.key)).toBe(true);
  });

  it('rejects tokens of the wrong shape and compares secrets of any length', () => {
    expect(looksLikeApiKey('atr_short')).toBe(false);
    expect(looksLikeApiKey(`xyz_${'a'.repeat(43)}`)).toBe(false);
    expect(sameSecret('a', 'a'.repeat(40))).toBe(false);
    expect(sameSecret('x'.repeat(40), 'x'.repeat(40))).toBe(true);
  });
});
