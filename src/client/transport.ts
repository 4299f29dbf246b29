import { snakeToCamel } from './case-conversion';
import { AtriumError, AtriumNetworkError, AtriumTimeoutError } from './errors';
import type { AtriumClientOptions, CallOptions, FetchLike, FetchResponseLike } from './options';
import { toQueryString, type QueryValue } from './query-string';
import { abortReason, backoffDelay, parseRetryAfter, resolveRetryPolicy, sleep, statusRetryDelay, type RetryPolicy } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route call in wire form (snake_case already). */
export interface WireRequest {
  method: HttpMethod;
  /** Path with its parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A body sent as is, with its type (import's NDJSON), instead of `body` as JSON. */
  rawBody?: { contentType: string; text: string };
  /**
   * Sending it twice has the same effect as once, so it may be retried after a network error
   * or timeout, when the first attempt may or may not have reached the service.
   */
  idempotent: boolean;
  /** Which credential to send: the API key (default) or the admin token. */
  auth?: 'key' | 'admin';
}

export interface WireResponse {
  status: number;
  /** Parsed JSON body (snake_case). */
  data: unknown;
}

interface RawResponse {
  status: number;
  statusText: string;
  text: string;
  headers: FetchResponseLike['headers'];
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** fetch + per-attempt timeout + retries + the error envelope. Knows nothing of routes. */
export class HttpTransport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: FetchLike;
  private readonly headers: Record<string, string>;

  constructor(options: AtriumClientOptions) {
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl)) {
      throw new TypeError('baseUrl must be an absolute http(s) URL');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.retry = resolveRetryPolicy(options.retries);
    const fetchFn = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (typeof fetchFn !== 'function') throw new TypeError('no fetch available: pass options.fetch (Node >= 18 and browsers have one)');
    // A bare reference to window.fetch throws "Illegal invocation" when called unbound.
    this.fetchFn = options.fetch ?? fetchFn.bind(globalThis);
    this.headers = { ...options.headers };
    this.apiKey = options.apiKey;
    this.adminToken = options.adminToken;
  }

  private readonly apiKey: string | undefined;
  private readonly adminToken: string | undefined;

  private credentialHeaders(request: WireRequest): Record<string, string> {
    if (request.auth === 'admin') {
      if (this.adminToken === undefined) throw new TypeError('this call needs the adminToken option');
      return { authorization: `Bearer ${this.adminToken}` };
    }
    return this.apiKey === undefined ? {} : { authorization: `Bearer ${this.apiKey}` };
  }

  async send(request: WireRequest, call: CallOptions = {}): Promise<WireResponse> {
    const policy = call.retries === undefined ? this.retry : resolveRetryPolicy(call.retries);
    for (let retry = 0; ; retry++) {
      let raw: RawResponse;
      try {
        raw = await this.attempt(request, call);
      } catch (error) {
        const transient = error instanceof AtriumNetworkError || error instanceof AtriumTimeoutError;
        if (!transient || !request.idempotent || retry >= policy.attempts) throw error;
        await sleep(backoffDelay(policy, retry), call.signal);
        continue;
      }
      if (raw.status >= 200 && raw.status < 300) return { status: raw.status, data: parseSuccess(raw, request) };
      const error = toAtriumError(raw, request);
      if (retry >= policy.attempts || !policy.on.has(raw.status)) throw error;
      // A write that is not safe to repeat is retried only after a 429: the rate limit refuses
      // before any work. A 503 can come from a connection lost while the write committed, so
      // repeating it could store twice.
      if (!request.idempotent && raw.status !== 429) throw error;
      const delay = statusRetryDelay(policy, retry, parseRetryAfter(raw.headers.get('retry-after')));
      if (delay === undefined) throw error;
      await sleep(delay, call.signal);
    }
  }

  /**
   * A streamed response (NDJSON), line by line, without the line breaks. No retries (a stream
   * cannot be resumed from the middle); the timeout applies to each wait for data, so a long
   * export runs as long as data keeps coming. A non-2xx answer is an AtriumError, as in send().
   */
  async *lines(request: WireRequest, call: CallOptions = {}): AsyncGenerator<string> {
    const { signal } = call;
    if (signal?.aborted) throw abortReason(signal);
    const timeoutMs = call.timeoutMs === undefined ? this.timeoutMs : checkTimeout(call.timeoutMs);
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    };
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const fail = (error: unknown): Error => {
      if (timedOut) return new AtriumTimeoutError(request.method, request.path, timeoutMs);
      if (signal?.aborted) return abortReason(signal) as Error;
      return error instanceof AtriumError ? error : new AtriumNetworkError(request.method, request.path, error);
    };
    const headers: Record<string, string> = {
      accept: 'application/x-ndjson, application/json',
      ...this.headers,
      ...this.credentialHeaders(request),
      ...call.headers,
    };
    const url = `${this.baseUrl}${request.path}${request.query ? toQueryString(request.query) : ''}`;
    arm();
    try {
      let response: FetchResponseLike;
      try {
        response = await this.fetchFn(url, { method: request.method, headers, signal: controller.signal });
        if (response.status < 200 || response.status >= 300) {
          const text = await response.text();
          throw toAtriumError({ status: response.status, statusText: response.statusText, text, headers: response.headers }, request);
        }
      } catch (error) {
        throw fail(error);
      }
      const reader = response.body?.getReader();
      if (!reader) {
        // A fetch without streams (a test double): the whole body, then its lines.
        let text: string;
        try {
          text = await response.text();
        } catch (error) {
          throw fail(error);
        }
        for (const line of text.split('\n')) if (line !== '') yield line;
        return;
      }
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for (;;) {
          arm();
          let chunk: { done: boolean; value?: Uint8Array };
          try {
            chunk = await reader.read();
          } catch (error) {
            throw fail(error);
          }
          buffered += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
          const parts = buffered.split('\n');
          buffered = parts.pop() ?? '';
          for (const line of parts) {
            if (line === '') continue;
            clearTimeout(timer);
            yield line;
          }
          if (chunk.done) break;
        }
        if (buffered !== '') yield buffered;
      } finally {
        // The consumer stopped early (break) or failed: release the connection.
        await reader.cancel().catch(() => undefined);
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async attempt(request: WireRequest, call: CallOptions): Promise<RawResponse> {
    const { signal } = call;
    if (signal?.aborted) throw abortReason(signal);
    const timeoutMs = call.timeoutMs === undefined ? this.timeoutMs : checkTimeout(call.timeoutMs);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.headers,
      ...this.credentialHeaders(request),
      ...call.headers,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.rawBody !== undefined) headers['content-type'] = request.rawBody.contentType;
    const url = `${this.baseUrl}${request.path}${request.query ? toQueryString(request.query) : ''}`;
    try {
      const response = await this.fetchFn(url, {
        method: request.method,
        headers,
        body: request.rawBody !== undefined ? request.rawBody.text : request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
      });
      // The body is read under the same timer: a server that sends headers and stalls is a timeout too.
      const text = await response.text();
      return { status: response.status, statusText: response.statusText, text, headers: response.headers };
    } catch (error) {
      if (timedOut) throw new AtriumTimeoutError(request.method, request.path, timeoutMs);
      if (signal?.aborted) throw abortReason(signal);
      throw new AtriumNetworkError(request.method, request.path, error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function checkTimeout(ms: number): number {
  if (!(ms > 0) || !Number.isFinite(ms)) throw new TypeError('timeoutMs must be a positive number');
  return ms;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function parseSuccess(raw: RawResponse, request: WireRequest): unknown {
  const parsed = parseJson(raw.text);
  if (parsed.ok) return parsed.value;
  // A 2xx that is not JSON is not Atrium (a captive portal, a misrouted proxy): say so.
  throw new AtriumError('Response body is not JSON', { status: raw.status, method: request.method, path: request.path, body: raw.text });
}

/** The `{ error, detail?, rejected? }` envelope, or a generic message for anything else (an HTML 502 from a proxy). */
function toAtriumError(raw: RawResponse, request: WireRequest): AtriumError {
  const parsed = parseJson(raw.text);
  const body = parsed.ok ? parsed.value : raw.text;
  const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof envelope.error === 'string' ? envelope.error : `HTTP ${raw.status}${raw.statusText ? ` ${raw.statusText}` : ''}`;
  const rejected = Array.isArray(envelope.rejected) ? envelope.rejected.filter((n): n is string => typeof n === 'string') : undefined;
  return new AtriumError(message, {
    status: raw.status,
    method: request.method,
    path: request.path,
    body,
    detail: typeof envelope.detail === 'string' ? envelope.detail : undefined,
    rejected: rejected?.map(snakeToCamel),
    requestId: raw.headers.get('x-request-id') ?? undefined,
  });
}
