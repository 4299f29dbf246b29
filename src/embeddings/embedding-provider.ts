import type { EMBEDDING_PROVIDER_NAMES } from '../env/env.schema';

/**
 * What every embedding backend offers the rest of Atrium.
 *
 * Vectors are unit length (cosine = dot product) and exactly `dimensions` long; the
 * database column has the same dimension, checked at startup.
 */
export interface EmbeddingProvider {
  /** Short name for logs and health output: 'local', 'hash', 'openai'. */
  readonly name: string;
  /** Model identifier (e.g. 'glove-6b-100d-sif', 'text-embedding-3-small'). */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per input text, in order. */
  embed(texts: string[]): Promise<number[][]>;
  /** Release files, sockets or timers. Optional. */
  close?(): Promise<void>;
}

export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDER_NAMES)[number];

export interface EmbeddingProviderOptions {
  provider: EmbeddingProviderName;
  dimensions: number;
  /** openai: model name sent to the endpoint. Ignored by the offline providers. */
  model?: string;
  /** openai: base URL up to and excluding `/v1/embeddings` (e.g. http://127.0.0.1:11434). */
  baseUrl?: string;
  apiKey?: string;
  /** openai: per-request timeout. */
  timeoutMs?: number;
  /** openai: retries on 429/5xx/network errors, with exponential backoff. */
  maxRetries?: number;
  /** openai: texts per request. */
  batchSize?: number;
  /** local: where the compact binary vocabulary is built and cached. */
  cacheDir?: string;
}

/**
 * Raised when an outside embedding service fails. `kind` decides the HTTP answer:
 * 'unavailable' (timeouts, connection refused, 429/5xx after retries) -> 503,
 * 'bad_response' (4xx other than 429, malformed body, wrong dimension) -> 502.
 */
export class EmbeddingProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'bad_response',
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingProviderError';
  }
}
