import { EmbeddingProvider, EmbeddingProviderError } from './embedding-provider';

export const DEFAULT_EMBEDDING_CACHE_CAPACITY = 1000;

/**
 * LRU cache in front of another provider, for query embeddings: agents repeat the same
 * searches, and a remote embedding call costs far more than the search itself.
 *
 * Keyed by the exact text. Concurrent requests for a text share one in-flight call; the misses
 * of one `embed` call go to the inner provider together, in one call. Failures are not cached.
 */
export class CachedEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  readonly model: string;
  readonly dimensions: number;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used
  // entry first, so eviction is "delete the first key".
  private readonly cache = new Map<string, number[]>();
  private readonly inFlight = new Map<string, Promise<number[]>>();

  constructor(
    private readonly inner: EmbeddingProvider,
    readonly capacity: number = DEFAULT_EMBEDDING_CACHE_CAPACITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be an integer >= 1, got ${capacity}`);
    this.name = inner.name;
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  get size(): number {
    return this.cache.size;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const pending = new Map<string, Promise<number[]>>();
    const misses = new Set<string>();
    for (const text of texts) {
      if (pending.has(text) || misses.has(text)) continue;
      const cached = this.cache.get(text);
      if (cached) {
        this.touch(text, cached);
        pending.set(text, Promise.resolve(cached));
      } else {
        const shared = this.inFlight.get(text);
        if (shared) pending.set(text, shared);
        else misses.add(text);
      }
    }
    if (misses.size > 0) {
      const missList = [...misses];
      this.fetchMisses(missList).forEach((promise, i) => pending.set(missList[i], promise));
    }
    const vectors = await Promise.all(texts.map((text) => pending.get(text)!));
    // Copies: a caller that edits its result must not edit the cache.
    return vectors.map((v) => v.slice());
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  private fetchMisses(misses: string[]): Promise<number[]>[] {
    const batch = this.inner.embed(misses).then((vectors) => {
      if (vectors.length !== misses.length) {
        throw new EmbeddingProviderError('bad_response', `inner provider returned ${vectors.length} vectors for ${misses.length} texts`);
      }
      return vectors;
    });
    return misses.map((text, i) => {
      const one = batch.then(
        (vectors) => {
          this.inFlight.delete(text);
          this.store(text, vectors[i]);
          return vectors[i];
        },
        (error: unknown) => {
          this.inFlight.delete(text);
          throw error;
        },
      );
      this.inFlight.set(text, one);
      return one;
    });
  }

  private touch(text: string, vector: number[]): void {
    this.cache.delete(text);
    this.cache.set(text, vector);
  }

  private store(text: string, vector: number[]): void {
    this.touch(text, vector);
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
  }
}
