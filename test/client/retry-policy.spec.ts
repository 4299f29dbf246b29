import { toQueryString } from '../../src/client/query-string';
import { backoffDelay, parseRetryAfter, resolveRetryPolicy, sleep, statusRetryDelay } from '../../src/client/retry-policy';

describe('client retry policy', () => {
  it('defaults to two retries on 429 and 503', () => {
    const policy = resolveRetryPolicy(undefined);
    expect(policy.attempts).toBe(2);
    expect([...policy.on]).toEqual([429, 503]);
    expect(resolveRetryPolicy({ attempts: 5 }).on).toEqual(new Set([429, 503]));
    expect(resolveRetryPolicy(false).attempts).toBe(0);
  });

  it('rejects a negative or fractional attempt count at construction', () => {
    expect(() => resolveRetryPolicy({ attempts: -1 })).toThrow(TypeError);
    expect(() => resolveRetryPolicy({ attempts: 1.5 })).toThrow(TypeError);
  });

  it('doubles the backoff per retry, half fixed and half jitter, capped by maxDelayMs', () => {
    const policy = resolveRetryPolicy({ attempts: 5, baseDelayMs: 100, maxDelayMs: 300 });
    expect(backoffDelay(policy, 0, () => 0)).toBe(50);
    expect(backoffDelay(policy, 0, () => 1)).toBe(100);
    expect(backoffDelay(policy, 1, () => 0.5)).toBe(150);
    expect(backoffDelay(policy, 4, () => 1)).toBe(300);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('waits what Retry-After asks, and gives up when that exceeds maxDelayMs', () => {
    const policy = resolveRetryPolicy({ attempts: 2, maxDelayMs: 5000 });
    expect(statusRetryDelay(policy, 0, 2000)).toBe(2000);
    expect(statusRetryDelay(policy, 0, 6000)).toBeUndefined();
  });

  it('ends a wait early when the caller aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('client query strings', () => {
  it('repeats array parameters, formats Dates and leaves out empty values', () => {
    expect(
      toQueryString({ user_id: 'a b', agent_scope: ['x', 'y'], limit: 5, as_of: new Date(0), offset: undefined, episode_id: null }),
    ).toBe('?user_id=a+b&agent_scope=x&agent_scope=y&limit=5&as_of=1970-01-01T00%3A00%3A00.000Z');
    expect(toQueryString({})).toBe('');
  });

  it('sends lists longer than the server parser accepts repeated (20) comma-separated', () => {
    const ids = Array.from({ length: 21 }, (_, i) => `id${i}`);
    expect(toQueryString({ agent_scope: ids })).toBe(`?agent_scope=${ids.join('%2C')}`);
  });
});
