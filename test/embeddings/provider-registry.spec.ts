import { createEmbeddingProvider, EMBEDDING_PROVIDERS } from '../../src/embeddings/create-embedding-provider';
import { configuredIdentity, configuredModelOnWire, identityOf } from '../../src/embeddings/embedding-identity';
import { EMBEDDING_PROVIDER_NAMES, loadEnv } from '../../src/env/env.schema';
import { defaultDuplicateThreshold } from '../../src/settings/runtime-config';

/**
 * Every provider in EMBEDDING_PROVIDER_NAMES is registered whole: the identity computed from
 * the configuration alone (the startup check compares it with every stored vector's label) is
 * the one the built provider reports, and the config route and the de-duplication default come
 * from the same entry.
 */
describe('EMBEDDING_PROVIDERS', () => {
  it('has exactly the names EMBEDDING_PROVIDER accepts', () => {
    expect(Object.keys(EMBEDDING_PROVIDERS).sort()).toEqual([...EMBEDDING_PROVIDER_NAMES].sort());
  });

  it.each(EMBEDDING_PROVIDER_NAMES)("%s: the configured identity is the built provider's", async (name) => {
    const env = loadEnv({
      EMBEDDING_PROVIDER: name,
      EMBEDDING_MODEL: 'some-model',
      EMBEDDING_BASE_URL: 'http://127.0.0.1:9',
      EMBEDDING_DIMENSIONS: '384',
    });
    const provider = await createEmbeddingProvider({
      provider: env.EMBEDDING_PROVIDER,
      dimensions: env.EMBEDDING_DIMENSIONS,
      model: env.EMBEDDING_MODEL,
      baseUrl: env.EMBEDDING_BASE_URL,
      cacheDir: env.EMBEDDINGS_CACHE_DIR,
    });
    try {
      expect(identityOf(provider)).toBe(configuredIdentity(env));
      expect(provider.name).toBe(name);
      const takesModel = EMBEDDING_PROVIDERS[name].model.from === 'EMBEDDING_MODEL';
      expect(configuredModelOnWire(env)).toBe(takesModel ? 'some-model' : name);
      expect(defaultDuplicateThreshold(name)).toBeGreaterThan(0.5);
      expect(defaultDuplicateThreshold(name)).toBeLessThanOrEqual(1);
    } finally {
      await provider.close?.();
    }
  });
});
