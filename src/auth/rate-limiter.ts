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
