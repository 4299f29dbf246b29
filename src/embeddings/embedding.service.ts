import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';

import { MetricsService } from '../metrics/metrics.service';
import { identityOf, type EmbeddingIdentity } from './embedding-identity';
import type { EmbeddingProvider } from './embedding-provider';

export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');
export const QUERY_EMBEDDING_PROVIDER = Symbol('QUERY_EMBEDDING_PROVIDER');

/**
 * What features use to turn text into vectors. Documents go straight to the provider (each
 * is embedded once, at write); queries go through an LRU cache, because agents repeat them.
 */
@Injectable()
export class EmbeddingService implements OnApplicationShutdown {
  constructor(
    @Inject(EMBEDDING_PROVIDER) private readonly documents: EmbeddingProvider,
    @Inject(QUERY_EMBEDDING_PROVIDER) private readonly queries: EmbeddingProvider,
    private readonly metrics: MetricsService,
  ) {}

  get dimensions(): number {
    return this.documents.dimensions;
  }

  /** `provider/model/dimensions` of the vectors this service makes (stored beside each one). */
  get identity(): EmbeddingIdentity {
    return identityOf(this.documents);
  }

  /** The provider, model and dimensions of the vectors this service makes (an export's header). */
  get description(): { provider: string; model: string; dimensions: number } {
    return { provider: this.documents.name, model: this.documents.model, dimensions: this.documents.dimensions };
  }

  get providerName(): string {
    return this.documents.name;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    return this.metrics.time(
      this.metrics.embeddingDuration,
      this.metrics.embeddingErrors,
      { provider: this.documents.name, kind: 'document' },
      () => this.documents.embed(texts),
    );
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.metrics.time(
      this.metrics.embeddingDuration,
      this.metrics.embeddingErrors,
      { provider: this.documents.name, kind: 'query' },
      () => this.queries.embed([text]),
    );
    return vector;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.documents.close?.();
  }
}
