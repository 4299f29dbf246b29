import { AuthFailureLimiter, KeyRateLimiter } from '../../src/auth/rate-limiter';

describe('per-key rate limiter', () => {
  it('allows a burst of the per-minute limit, then answers the seconds until one request is regained', () => {
    let now = 0;
    const limiter = new KeyRateLimiter(() => now);
    expect([1, 2, 3].map(() => limiter.take('k', 3))).toEqual([0, 0, 0]);
    expect(limiter.take('k', 3)).toBe(20); // 3 per minute: one every 20 s
    now += 20_000;
    expect(limiter.take('k', 3)).toBe(0);
    expect(limiter.take('k', 3)).toBeGreaterThan(0);
  });

  it('keeps a bucket per key', () => {
    const limiter = new KeyRateLimiter(() => 0);
    expect(limiter.take('a', 1)).toBe(0);
    expect(limiter.take('a', 1)).toBe(60);
    expect(limiter.take('b', 1)).toBe(0);
  });
});

describe('AuthFailureLimiter', () => {
  it('refuses an address after perMinute failures, refills over the minute, and keeps at most maxAddresses buckets', () => {
    let now = 0;
    const limiter = new AuthFailureLimiter(3, 2, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.wait('a')).toBe(0);
      limiter.fail('a');
    }
    expect(limiter.wait('a')).toBe(20);
    expect(limiter.wait('b')).toBe(0);
    now += 20_000;
    expect(limiter.wait('a')).toBe(0);
    limiter.fail('a');
    limiter.fail('b');
    limiter.fail('c');
    // 'a' was the oldest of three buckets with room for two: dropped, so it starts afresh.
    expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBe(2);
    expect(limiter.wait('a')).toBe(0);
  });

  it('never refuses with 0 per minute', () => {
    const limiter = new AuthFailureLimiter(0);
    for (let i = 0; i < 100; i++) limiter.fail('a');
    expect(limiter.wait('a')).toBe(0);
  });
});
