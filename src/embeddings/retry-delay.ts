/**
 * Wait before retry number `retry` (0 = first retry).
 *
 * Without a server hint: exponential backoff with jitter in the upper half of the step, so
 * clients that failed together do not retry together, yet no retry comes almost immediately.
 * With Retry-After: the server knows its own rate window, so that wait is used as is, capped
 * at `maxMs` (an hour-long Retry-After must not hang a request).
 */
export function retryDelayMs(
  retry: number,
  baseMs: number,
  maxMs: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), maxMs);
  const step = Math.min(maxMs, baseMs * 2 ** retry);
  return step / 2 + (random() * step) / 2;
}
