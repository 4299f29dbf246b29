import { injectTraceHeaders } from '../common/telemetry/tracing';
import { EmbeddingProvider, EmbeddingProviderError } from './embedding-provider';
import { retryDelayMs } from './retry-delay';

export interface OpenAiEmbeddingOptions {
  /** Up to and excluding `/v1/embeddings`; a trailing `/v1` is tolerated. */
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  /** Per attempt, covering connect, headers and body. Default 15 s. */
  timeoutMs?: number;
  /** Extra attempts after the first on 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /**
   * Send `dimensions` in the body (OpenAI text-embedding-3 shortens vectors server-side).
   * Default true; turn off for models that reject the field (ada-002, some local servers).
   */
  sendDimensions?: boolean;
  /** First backoff step; doubles per attempt, with jitter. Default 200 ms. */
  retryBaseDelayMs?: number;
  /** Longest single wait, also the cap on Retry-After. Default 10 s. */
  retryMaxDelayMs?: number;
}

const DEFAULTS = {
  timeoutMs: 15_000,
  maxRetries: 3,
  batchSize: 64,
  retryBaseDelayMs: 200,
  retryMaxDelayMs: 10_000,
};

/** Something went wrong that another attempt may fix. */
class RetryableFailure {
  constructor(
    readonly reason: string,
    readonly retryAfterMs?: number,
  ) {}
}

/**
 * Any OpenAI-compatible `POST /v1/embeddings` (OpenAI, Ollama, vLLM, LM Studio, TEI).
 * Batches in order, retries what is transient, validates every vector and returns unit vectors.
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly dimensions: number;
  private readonly url: string;
  private readonly options: Required<Omit<OpenAiEmbeddingOptions, 'apiKey'>> & { apiKey?: string };
  // close() aborts requests still running, so shutdown does not wait for a slow endpoint.
  private readonly closing = new AbortController();

  constructor(options: OpenAiEmbeddingOptions) {
    this.options = { ...DEFAULTS, sendDimensions: true, ...withoutUndefined(options), ...pickRequired(options) };
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/embeddings`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(start, start + this.options.batchSize))));
    }
    return out;
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  private async embedBatch(input: string[]): Promise<number[][]> {
    const { maxRetries, retryBaseDelayMs, retryMaxDelayMs } = this.options;
    let failure = new RetryableFailure('no attempt made');
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) {
        await sleep(retryDelayMs(attempt - 1, retryBaseDelayMs, retryMaxDelayMs, failure.retryAfterMs), this.closing.signal);
      }
      const result = await this.attempt(input);
      if (!(result instanceof RetryableFailure)) return result;
      failure = result;
    }
    throw new EmbeddingProviderError(
      'unavailable',
      this.redact(`embedding endpoint ${this.url} failed after ${maxRetries + 1} attempt(s): ${failure.reason}`),
    );
  }

  /** One request: vectors, a retryable failure, or a thrown 'bad_response'. */
  private async attempt(input: string[]): Promise<number[][] | RetryableFailure> {
    if (this.closing.signal.aborted) throw new EmbeddingProviderError('unavailable', 'embedding provider is closed');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    injectTraceHeaders(headers);
    const body: Record<string, unknown> = { model: this.model, input };
    if (this.options.sendDimensions) body.dimensions = this.dimensions;
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.timeoutMs)]);

    let response: Response;
    let text: string;
    try {
      response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      // The timeout covers the body too: a server that sends headers and then stalls is a timeout.
      text = await response.text();
    } catch (error) {
      if (this.closing.signal.aborted) throw new EmbeddingProviderError('unavailable', 'embedding provider is closed');
      return new RetryableFailure(describeFetchError(error, this.options.timeoutMs));
    }

    if (response.status === 429 || response.status >= 500) {
      return new RetryableFailure(`HTTP ${response.status}${snippet(text)}`, parseRetryAfter(response.headers.get('retry-after')));
    }
    if (!response.ok) {
      const hint =
        response.status === 400 && this.options.sendDimensions
          ? ' (if the model does not accept `dimensions`, disable sendDimensions)'
          : '';
      throw new EmbeddingProviderError(
        'bad_response',
        this.redact(`embedding endpoint ${this.url} answered HTTP ${response.status}${snippet(text)}${hint}`),
      );
    }
    return this.parseVectors(text, input.length);
  }

  private parseVectors(text: string, expected: number): number[][] {
    const fail = (why: string): never => {
      throw new EmbeddingProviderError('bad_response', this.redact(`embedding endpoint ${this.url} returned ${why}`));
    };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return fail(`a body that is not JSON${snippet(text)}`);
    }
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data)) return fail('no `data` array');
    if (data.length !== expected) return fail(`${data.length} embeddings for ${expected} inputs`);
    // Servers may answer out of order; `index` says where each vector belongs. Without any
    // `index` (some local servers) the array order is all there is.
    const useIndex = data.some((item) => (item as { index?: unknown })?.index !== undefined);
    const out: number[][] = new Array(expected);
    data.forEach((item: unknown, position) => {
      const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      const slot = useIndex ? index : position;
      if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= expected || out[slot]) {
        fail(`an invalid or duplicate index ${JSON.stringify(index)}`);
      }
      out[slot as number] = this.checkedUnitVector(embedding, slot as number, fail);
    });
    return out;
  }

  private checkedUnitVector(embedding: unknown, slot: number, fail: (why: string) => never): number[] {
    if (!Array.isArray(embedding)) return fail(`embedding ${slot} that is not an array (base64 encoding is not supported)`);
    if (embedding.length !== this.dimensions) {
      return fail(`embedding ${slot} with ${embedding.length} dimensions, configured ${this.dimensions}`);
    }
    let sum = 0;
    for (const x of embedding) {
      if (typeof x !== 'number' || !Number.isFinite(x)) return fail(`embedding ${slot} with a non-numeric value`);
      sum += x * x;
    }
    if (sum === 0) return fail(`embedding ${slot} that is all zeros`);
    const scale = 1 / Math.sqrt(sum);
    return embedding.map((x: number) => x * scale);
  }

  /** Servers sometimes echo the key back ("Incorrect API key provided: sk-..."). */
  private redact(message: string): string {
    const key = this.options.apiKey;
    return key ? message.split(key).join('[redacted]') : message;
  }
}

function pickRequired({ baseUrl, model, dimensions }: OpenAiEmbeddingOptions) {
  return { baseUrl, model, dimensions };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function snippet(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (!trimmed) return '';
  return `: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}...` : trimmed}`;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  // Duck-typed: the DOMException from AbortSignal.timeout is not `instanceof Error` in every realm.
  const { name, message, cause } = (error ?? {}) as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  if (typeof message !== 'string') return String(error);
  // undici hides the interesting part (ECONNREFUSED, socket hang up) in `cause`.
  const { code, message: causeMessage } = (cause ?? {}) as { code?: unknown; message?: unknown };
  if (typeof causeMessage !== 'string') return message;
  return `${message} (${typeof code === 'string' ? `${code}: ` : ''}${causeMessage})`;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new EmbeddingProviderError('unavailable', 'embedding provider is closed'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new EmbeddingProviderError('unavailable', 'embedding provider is closed'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
