import { EmbeddingProvider, EmbeddingProviderOptions } from './embedding-provider';
import { HASH_MIN_DIMENSIONS, HashEmbeddingProvider } from './hash.provider';
import { LOCAL_MIN_DIMENSIONS, LocalEmbeddingProvider } from './local/local.provider';
import { OpenAiEmbeddingProvider } from './openai.provider';

/** The options cannot work; the message names the option and what is expected. */
export class InvalidEmbeddingOptionsError extends Error {
  constructor(message: string) {
    super(`invalid embedding options: ${message}`);
    this.name = 'InvalidEmbeddingOptionsError';
  }
}

/**
 * Builds the configured provider. Async because `local` may have to load (tens of ms) or, on
 * the very first run, build (a few seconds, ~0.7 GB peak memory) its vocabulary file.
 * The result is not cached; wrap it in CachedEmbeddingProvider where queries repeat.
 */
export async function createEmbeddingProvider(options: EmbeddingProviderOptions): Promise<EmbeddingProvider> {
  const { provider, dimensions } = options;
  switch (provider) {
    case 'hash':
      requireDimensions(dimensions, HASH_MIN_DIMENSIONS, 'hash');
      return new HashEmbeddingProvider(dimensions);
    case 'local':
      requireDimensions(dimensions, LOCAL_MIN_DIMENSIONS, 'local (100 semantic + 1 bias + lexical dimensions)');
      return LocalEmbeddingProvider.create({ dimensions, cacheDir: options.cacheDir });
    case 'openai':
      return new OpenAiEmbeddingProvider(openAiOptions(options));
    default:
      throw new InvalidEmbeddingOptionsError(
        `unknown provider ${JSON.stringify(provider satisfies never)}; expected 'local', 'hash' or 'openai'`,
      );
  }
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
