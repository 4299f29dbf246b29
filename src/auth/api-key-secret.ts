import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'atr_';
/** 32 random bytes = 256 bits, 43 base64url characters. */
const KEY_RANDOM_BYTES = 32;
/** Characters of the random part stored in clear for the lookup (72 bits: unique in practice, not a secret). */
const LOOKUP_PREFIX_LENGTH = 12;
const KEY_SHAPE = /^atr_[A-Za-z0-9_-]{43,128}$/;

export interface MintedKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

/** A new secret: shown once to the admin, then only its hash and lookup prefix are kept. */
export function mintApiKey(): MintedKey {
  const key = KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
  return { key, prefix: lookupPrefix(key), hash: hashApiKey(key) };
}

/**
 * SHA-256 is enough for a 256-bit random secret: there is nothing to guess that a slow hash
 * would protect (unlike a password).
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function lookupPrefix(key: string): string {
  return key.slice(KEY_PREFIX.length, KEY_PREFIX.length + LOOKUP_PREFIX_LENGTH);
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** Constant-time equality of two byte strings (false, without comparing, on a length difference). */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Constant-time comparison of a presented token with the configured one (both hashed first, so lengths match). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(hashApiKey(presented), hashApiKey(expected));
}
