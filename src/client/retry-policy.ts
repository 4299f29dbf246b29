import type { RetryOptions } from './options';

export interface RetryPolicy {
  readonly attempts: number;
  readonly on: ReadonlySet<number>;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_STATUSES: readonly number[] = [429, 503];

const NO_RETRY: RetryPolicy = { attempts: 0, on: new Set(), baseDelayMs: 0, maxDelayMs: 0 };

/** Validated once, at construction (or per call), so a typo fails loudly instead of never retrying. */
export function resolveRetryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return NO_RETRY;
  const { attempts = 2, on = DEFAULT_RETRY_STATUSES, baseDelayMs = 250, maxDelayMs = 30_000 } = options ?? { attempts: 2 };
  if (!Number.isInteger(attempts) || attempts < 0) throw new TypeError('retries.attempts must be an integer >= 0');
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= 0)) throw new TypeError('retries delays must be numbers >= 0');
  return { attempts, on: new Set(on), baseDelayMs, maxDelayMs };
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so clients
 * that failed together do not retry together, yet each still waits a predictable minimum.
 * `retry` is 0 for the first retry.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before retrying an error status: what the server asked for when it said,
 * else the backoff. Undefined (do not retry) when the server asks for longer than maxDelayMs.
 */
export function statusRetryDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number | undefined {
  if (retryAfterMs === undefined) return backoffDelay(policy, retry);
  return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
}

/** An abort reason that is always an Error named AbortError, like fetch's own. */
export function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}

/** A wait the caller can cancel: an aborted call must not sit out a long Retry-After. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
