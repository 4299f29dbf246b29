/**
 * Three failure kinds a caller handles differently: the service answered with an error
 * (AtriumError: fix the input, or not found / forbidden), it did not answer in time
 * (AtriumTimeoutError), or it could not be reached at all (AtriumNetworkError). A caller's own
 * abort is not wrapped: its reason is rethrown unchanged.
 */

export interface AtriumErrorInit {
  status: number;
  method: string;
  path: string;
  /** The parsed error body (or the raw text when it was not JSON). */
  body: unknown;
  detail?: string;
  rejected?: string[];
  requestId?: string;
}

/** The service answered with a non-2xx status. `message` is the server's `error` string. */
export class AtriumError extends Error {
  override readonly name = 'AtriumError';
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** Config route only: why the change was refused (410 and startup-only 400). */
  readonly detail?: string;
  /** Config route only: the refused field names, camelCased like the caller wrote them. */
  readonly rejected?: string[];
  /** The response's `X-Request-Id`, to find the request in the service's log. */
  readonly requestId?: string;

  constructor(message: string, init: AtriumErrorInit) {
    super(message);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.rejected !== undefined) this.rejected = init.rejected;
    if (init.requestId !== undefined) this.requestId = init.requestId;
  }
}

/** No answer within `timeoutMs` (the last attempt, when retries were allowed). */
export class AtriumTimeoutError extends Error {
  override readonly name = 'AtriumTimeoutError';

  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} timed out after ${timeoutMs} ms`);
  }
}

/** The request failed before any HTTP answer (refused, reset, DNS, CORS...). */
export class AtriumNetworkError extends Error {
  override readonly name = 'AtriumNetworkError';

  constructor(
    readonly method: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(`${method} ${path} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
