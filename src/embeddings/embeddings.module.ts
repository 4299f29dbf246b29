import { DynamicModule, Global, Module } from '@nestjs/common';

import type { AppEnv } from '../env/env.schema';
import { CpuWork } from '../workers/cpu-work.service';
import { CachedEmbeddingProvider } from './cached-embedding-provider';
import { createEmbeddingProvider, EMBEDDING_PROVIDERS } from './create-embedding-provider';
import type { EmbeddingProvider } from './embedding-provider';
import { EMBEDDING_PROVIDER, EmbeddingService, QUERY_EMBEDDING_PROVIDER } from './embedding.service';
import { OffloadingEmbeddingProvider } from './offloading-embedding-provider';

@Global()
@Module({})
export class EmbeddingsModule {
  static forRoot(env: AppEnv): DynamicModule {
    return {
      module: EmbeddingsModule,
      providers: [
        {
          provide: EMBEDDING_PROVIDER,
          inject: [CpuWork],
          useFactory: async (cpu: CpuWork) => {
            const provider = await createEmbeddingProvider({
              provider: env.EMBEDDING_PROVIDER,
              dimensions: env.EMBEDDING_DIMENSIONS,
              model: env.EMBEDDING_MODEL,
              baseUrl: env.EMBEDDING_BASE_URL,
              apiKey: env.EMBEDDING_API_KEY,
              timeoutMs: env.EMBEDDING_TIMEOUT_MS,
              cacheDir: env.EMBEDDINGS_CACHE_DIR,
            });
            // The in-process providers compute on this thread: long texts go to a CPU worker.
            if (!EMBEDDING_PROVIDERS[env.EMBEDDING_PROVIDER].computesInProcess) return provider;
            const embedder = { name: env.EMBEDDING_PROVIDER, dimensions: env.EMBEDDING_DIMENSIONS, cacheDir: env.EMBEDDINGS_CACHE_DIR };
            return new OffloadingEmbeddingProvider(provider, embedder, cpu);
          },
        },
        {
          provide: QUERY_EMBEDDING_PROVIDER,
          inject: [EMBEDDING_PROVIDER],
          useFactory: (inner: EmbeddingProvider) =>
            env.QUERY_EMBEDDING_CACHE_SIZE > 0 ? new CachedEmbeddingProvider(inner, env.QUERY_EMBEDDING_CACHE_SIZE) : inner,
        },
        EmbeddingService,
      ],
      exports: [EmbeddingService],
    };
  }
}
