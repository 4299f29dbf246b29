import { KeyRateLimiter } from '../../src/auth/rate-limiter';

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
