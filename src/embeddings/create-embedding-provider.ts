import type { EmbeddingProvider, EmbeddingProviderName, EmbeddingProviderOptions } from './embedding-provider';
import { HASH_EMBEDDING_MODEL, HASH_MIN_DIMENSIONS, HashEmbeddingProvider } from './hash.provider';
import { LOCAL_EMBEDDING_MODEL, LOCAL_MIN_DIMENSIONS, LocalEmbeddingProvider } from './local/local.provider';
import { OpenAiEmbeddingProvider } from './openai.provider';

/** The options cannot work; the message names the option and what is expected. */
export class InvalidEmbeddingOptionsError extends Error {
  constructor(message: string) {
    super(`invalid embedding options: ${message}`);
    this.name = 'InvalidEmbeddingOptionsError';
  }
}

/**
 * What Atrium knows of each provider, in one place: a Record over the provider union, so a
 * provider named in EMBEDDING_PROVIDER_NAMES (env.schema.ts) without an entry here does not
 * compile, and nothing else switches over provider names (the identity stored beside every
 * vector, GET /v1/config, the default de-duplication threshold all read this table).
 */
export interface EmbeddingProviderEntry {
  /** The model part of the provider's identity: the provider's own, or EMBEDDING_MODEL. */
  model: { from: 'provider'; name: string } | { from: 'EMBEDDING_MODEL' };
  /**
   * Cosine similarity at which an ingested fact duplicates a visible memory when
   * DUPLICATE_THRESHOLD is unset, calibrated on pairs of different sentences of real chats
   * (`npm run eval:dedup`; docs/retrieval.md, "De-duplication threshold per provider").
   */
  duplicateThreshold: number;
  /**
   * Computes on this process's CPU (rather than waiting on a network): its long inputs are
   * embedded on a CPU worker (OffloadingEmbeddingProvider), which builds it from the same options.
   */
  computesInProcess: boolean;
  create(options: EmbeddingProviderOptions): Promise<EmbeddingProvider> | EmbeddingProvider;
}

export const EMBEDDING_PROVIDERS: Readonly<Record<EmbeddingProviderName, EmbeddingProviderEntry>> = {
  // Two different turns of one chat can come close enough that 0.95 drops real turns; 0.98
  // drops none and still catches re-sent and re-cased text.
  local: {
    model: { from: 'provider', name: LOCAL_EMBEDDING_MODEL },
    duplicateThreshold: 0.98,
    computesInProcess: true,
    create: (options) => {
      requireDimensions(options.dimensions, LOCAL_MIN_DIMENSIONS, 'local (100 semantic + 1 bias + lexical dimensions)');
      return LocalEmbeddingProvider.create({ dimensions: options.dimensions, cacheDir: options.cacheDir });
    },
  },
  // Different turns stay well below 0.95.
  hash: {
    model: { from: 'provider', name: HASH_EMBEDDING_MODEL },
    duplicateThreshold: 0.95,
    computesInProcess: true,
    create: (options) => {
      requireDimensions(options.dimensions, HASH_MIN_DIMENSIONS, 'hash');
      return new HashEmbeddingProvider(options.dimensions);
    },
  },
  // No such model runs offline here to calibrate: 0.95, or set DUPLICATE_THRESHOLD.
  openai: {
    model: { from: 'EMBEDDING_MODEL' },
    duplicateThreshold: 0.95,
    computesInProcess: false,
    create: (options) => new OpenAiEmbeddingProvider(openAiOptions(options)),
  },
};

/**
 * Builds the configured provider. Async because `local` may have to load (tens of ms) or, on
 * the very first run, build (a few seconds, ~0.7 GB peak memory) its vocabulary file.
 * The result is not cached; wrap it in CachedEmbeddingProvider where queries repeat.
 */
export async function createEmbeddingProvider(options: EmbeddingProviderOptions): Promise<EmbeddingProvider> {
  const { provider } = options;
  if (!Object.hasOwn(EMBEDDING_PROVIDERS, provider)) {
    const known = Object.keys(EMBEDDING_PROVIDERS).map((name) => `'${name}'`);
    throw new InvalidEmbeddingOptionsError(
      `unknown provider ${JSON.stringify(provider)}; expected ${known.slice(0, -1).join(', ')} or ${known[known.length - 1]}`,
    );
  }
  return EMBEDDING_PROVIDERS[provider].create(options);
}

function openAiOptions(options: EmbeddingProviderOptions) {
  requireDimensions(options.dimensions, 1, 'openai');
  const { baseUrl, model } = options;
  if (!baseUrl)
    throw new InvalidEmbeddingOptionsError('provider openai needs baseUrl (e.g. https://api.openai.com or http://127.0.0.1:11434)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidEmbeddingOptionsError(`baseUrl ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidEmbeddingOptionsError(`baseUrl must be http or https, got ${url.protocol}`);
  }
  if (!model) throw new InvalidEmbeddingOptionsError('provider openai needs model (e.g. text-embedding-3-small)');
  requirePositiveInteger(options.timeoutMs, 'timeoutMs');
  requirePositiveInteger(options.batchSize, 'batchSize');
  if (options.maxRetries !== undefined && (!Number.isInteger(options.maxRetries) || options.maxRetries < 0)) {
    throw new InvalidEmbeddingOptionsError(`maxRetries must be an integer >= 0, got ${options.maxRetries}`);
  }
  return {
    baseUrl,
    model,
    dimensions: options.dimensions,
    apiKey: options.apiKey || undefined,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    batchSize: options.batchSize,
  };
}

function requireDimensions(dimensions: number, min: number, what: string): void {
  if (!Number.isInteger(dimensions) || dimensions < min) {
    throw new InvalidEmbeddingOptionsError(`dimensions must be an integer >= ${min} for provider ${what}, got ${dimensions}`);
  }
}

function requirePositiveInteger(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new InvalidEmbeddingOptionsError(`${name} must be a positive integer, got ${value}`);
  }
}
