import { cpuTask, INLINE_MAX_CHARS, type CpuTask } from '../workers/cpu-tasks';
import type { CpuWork } from '../workers/cpu-work.service';
import { EMBEDDING_PROVIDERS } from './create-embedding-provider';
import type { EmbeddingProvider, EmbeddingProviderName } from './embedding-provider';

/** A provider that computes in process (`computesInProcess` in EMBEDDING_PROVIDERS), as a worker rebuilds it. */
export interface InProcessEmbedder {
  name: EmbeddingProviderName;
  dimensions: number;
  cacheDir?: string;
}

export const embedTask = (embedder: InProcessEmbedder, texts: string[]): CpuTask<number[][]> => cpuTask('embed', { embedder, texts });

/**
 * What a worker runs for an embed task: the same provider built from the same options (once per
 * worker; the `local` one reads the vocabulary file the service built at boot).
 */
const built = new Map<string, Promise<EmbeddingProvider>>();
export async function embedHandler(task: unknown): Promise<number[][]> {
  const { embedder, texts } = task as { embedder: InProcessEmbedder; texts: string[] };
  const key = `${embedder.name}/${embedder.dimensions}/${embedder.cacheDir ?? ''}`;
  let provider = built.get(key);
  if (!provider) {
    provider = Promise.resolve(
      EMBEDDING_PROVIDERS[embedder.name].create({ provider: embedder.name, dimensions: embedder.dimensions, cacheDir: embedder.cacheDir }),
    );
    built.set(key, provider);
  }
  return (await provider).embed(texts);
}

/**
 * An in-process provider (`hash`, `local`) whose long inputs are embedded on a CPU worker: a
 * verbatim 100,000-character memory costs 25-130 ms of tokenising and hashing, which on the event
 * loop held every other request (docs/security.md, "Bounded time"). Batches up to
 * INLINE_MAX_CHARS in total stay inline, where a worker round trip would cost more than the work;
 * the worker builds the same provider from the same options, so the vectors are identical.
 */
export class OffloadingEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  readonly model: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: EmbeddingProvider,
    private readonly embedder: InProcessEmbedder,
    private readonly cpu: CpuWork,
  ) {
    this.name = inner.name;
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  embed(texts: string[]): Promise<number[][]> {
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    if (total <= INLINE_MAX_CHARS) return this.inner.embed(texts);
    return this.cpu.run(embedTask(this.embedder, texts));
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}
