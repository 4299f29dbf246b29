/**
 * The parts of the fetch API the client relies on, declared structurally so that the
 * client's declarations need neither lib.dom nor @types/node: `globalThis.fetch` (Node >= 18,
 * browsers), undici's fetch or a test double all satisfy it.
 */
export interface FetchResponseLike {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body as a stream (fetch in Node >= 18 and browsers); without it, streamed routes read text(). */
  readonly body?: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> } } | null;
}

export interface FetchRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** `typeof fetch` is assignable to this. */
export type FetchLike = (url: string, init: FetchRequestInit) => Promise<FetchResponseLike>;

/**
 * When to send a request again. Statuses in `on` mean "not processed, try later" (429, 503),
 * so they are retried for every method; a network failure or timeout may have reached the
 * server, so it is retried only for idempotent calls. Other 4xx are never retried.
 */
export interface RetryOptions {
  /** Extra attempts after the first one; 0 never retries. */
  attempts: number;
  /** Statuses to retry. Default `[429, 503]`. */
  on?: readonly number[];
  /** First backoff delay, doubled on each retry, with jitter. Default 250 ms. */
  baseDelayMs?: number;
  /**
   * Longest single wait. A `Retry-After` longer than this is not waited for: the error is
   * thrown at once, since retrying sooner than the server asked would only be refused again.
   * Default 30000 ms.
   */
  maxDelayMs?: number;
}

export interface AtriumClientOptions {
  /** Where Atrium listens, e.g. `http://localhost:3050` (a path prefix is kept). */
  baseUrl: string;
  /** Per attempt, including reading the body. Default 30000 ms. */
  timeoutMs?: number;
  /** Default `{ attempts: 2, on: [429, 503] }`; `false` turns retries off. */
  retries?: RetryOptions | false;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Sent with every request (for example a proxy's auth header). */
  headers?: Record<string, string>;
  /**
   * An Atrium API key (`atr_...`, AUTH_MODE=api_key), sent as `Authorization: Bearer` on every
   * route call. The service then takes the scope from the key: ids may be left out (and, when
   * given, must be the key's).
   */
  apiKey?: string;
  /** ATRIUM_ADMIN_TOKEN, sent by the admin methods (keys, audit) and, when set, by updateConfig. */
  adminToken?: string;
}

/** Per-call overrides, the optional last argument of every method. */
export interface CallOptions {
  /** Cancels the call, including any wait between retries; the abort reason is rethrown as is. */
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: RetryOptions | false;
  headers?: Record<string, string>;
}
