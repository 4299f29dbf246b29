/**
 * Per-key token buckets, in this process: each key may spend `perMinute` requests in a burst
 * and regains perMinute / 60 per second. With several instances each has its own buckets, so
 * a key's effective limit is per instance (documented in docs/security.md).
 */
export class KeyRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number; perMinute: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Spend one request. Returns 0 when allowed, else the seconds to wait (Retry-After). */
  take(keyId: string, perMinute: number): number {
    const now = this.now();
    let bucket = this.buckets.get(keyId);
    if (!bucket || bucket.perMinute !== perMinute) {
      bucket = { tokens: perMinute, at: now, perMinute };
      this.buckets.set(keyId, bucket);
    }
    const perMs = perMinute / 60_000;
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }

  forget(keyId: string): void {
    this.buckets.delete(keyId);
  }
}

/**
 * Failed key lookups per client address (AUTH_FAILURES_PER_MINUTE), in this process: a bucket
 * of `perMinute` failures per address, refilled evenly over the minute. While an address's
 * bucket is empty its requests are refused before any key is looked up. At most `maxAddresses`
 * buckets are kept (the oldest dropped first), so a flood of addresses cannot grow memory.
 */
export class AuthFailureLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** 0 when the address may try a key, else the seconds to wait (Retry-After). */
  wait(address: string): number {
    if (this.perMinute <= 0) return 0;
    const bucket = this.refilled(address);
    if (!bucket || bucket.tokens >= 1) return 0;
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * 60_000) / this.perMinute / 1000));
  }

  /** Count one failed lookup from the address. */
  fail(address: string): void {
    if (this.perMinute <= 0) return;
    const bucket = this.refilled(address) ?? { tokens: this.perMinute, at: this.now() };
    bucket.tokens -= 1;
    this.buckets.delete(address);
    this.buckets.set(address, bucket);
    while (this.buckets.size > this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  private refilled(address: string): { tokens: number; at: number } | undefined {
    const bucket = this.buckets.get(address);
    if (!bucket) return undefined;
    const now = this.now();
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    if (bucket.tokens >= this.perMinute) {
      this.buckets.delete(address);
      return undefined;
    }
    return bucket;
  }
}
