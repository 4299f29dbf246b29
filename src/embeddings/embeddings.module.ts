import { DynamicModule, Global, Module } from '@nestjs/common';

import type { AppEnv } from '../env/env.schema';
import { CachedEmbeddingProvider } from './cached-embedding-provider';
import { createEmbeddingProvider } from './create-embedding-provider';
import type { EmbeddingProvider } from './embedding-provider';
import { EMBEDDING_PROVIDER, EmbeddingService, QUERY_EMBEDDING_PROVIDER } from './embedding.service';

@Global()
@Module({})
export class EmbeddingsModule {
  static forRoot(env: AppEnv): DynamicModule {
    return {
      module: EmbeddingsModule,
      providers: [
        {
          provide: EMBEDDING_PROVIDER,
          useFactory: () =>
            createEmbeddingProvider({
              provider: env.EMBEDDING_PROVIDER,
              dimensions: env.EMBEDDING_DIMENSIONS,
              model: env.EMBEDDING_MODEL,
              baseUrl: env.EMBEDDING_BASE_URL,
              apiKey: env.EMBEDDING_API_KEY,
              timeoutMs: env.EMBEDDING_TIMEOUT_MS,
              cacheDir: env.EMBEDDINGS_CACHE_DIR,
            }),
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
