import { createEmbeddingProvider, InvalidEmbeddingOptionsError } from '../../src/embeddings/create-embedding-provider';
import { EmbeddingProviderName, EmbeddingProviderOptions } from '../../src/embeddings/embedding-provider';
import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';
import { OpenAiEmbeddingProvider } from '../../src/embeddings/openai.provider';

// The 'local' case lives in local.provider.spec.ts, next to the other users of the default
// cache directory.
describe('createEmbeddingProvider', () => {
  it('creates the hash provider', async () => {
    const provider = await createEmbeddingProvider({ provider: 'hash', dimensions: 384 });
    expect(provider).toBeInstanceOf(HashEmbeddingProvider);
    expect(provider.dimensions).toBe(384);
  });

  it('creates the openai provider without making a request', async () => {
    const provider = await createEmbeddingProvider({
      provider: 'openai',
      dimensions: 1536,
      baseUrl: 'http://127.0.0.1:9',
      model: 'text-embedding-3-small',
    });
    expect(provider).toBeInstanceOf(OpenAiEmbeddingProvider);
    expect([provider.name, provider.model, provider.dimensions]).toEqual(['openai', 'text-embedding-3-small', 1536]);
  });

  it.each<[string, EmbeddingProviderOptions, RegExp]>([
    ['an unknown provider', { provider: 'bert' as EmbeddingProviderName, dimensions: 384 }, /unknown provider "bert"/],
    ['too few dimensions for local', { provider: 'local', dimensions: 64 }, /dimensions must be an integer >= 128 for provider local/],
    ['fractional dimensions', { provider: 'hash', dimensions: 383.5 }, /dimensions must be an integer/],
    ['openai without baseUrl', { provider: 'openai', dimensions: 384, model: 'm' }, /needs baseUrl/],
    [
      'openai with a baseUrl that is not a URL',
      { provider: 'openai', dimensions: 384, model: 'm', baseUrl: 'localhost:11434' },
      /http or https|not a URL/,
    ],
    ['openai without model', { provider: 'openai', dimensions: 384, baseUrl: 'http://x' }, /needs model/],
    [
      'a zero batch size',
      { provider: 'openai', dimensions: 384, model: 'm', baseUrl: 'http://x', batchSize: 0 },
      /batchSize must be a positive integer/,
    ],
    [
      'negative retries',
      { provider: 'openai', dimensions: 384, model: 'm', baseUrl: 'http://x', maxRetries: -1 },
      /maxRetries must be an integer >= 0/,
    ],
  ])('rejects %s with a clear message', async (_case, options, message) => {
    const attempt = createEmbeddingProvider(options);
    await expect(attempt).rejects.toThrow(InvalidEmbeddingOptionsError);
    await expect(createEmbeddingProvider(options)).rejects.toThrow(message);
  });
});
