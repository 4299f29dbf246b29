import { CachedEmbeddingProvider } from '../../src/embeddings/cached-embedding-provider';
import { EmbeddingProvider } from '../../src/embeddings/embedding-provider';
import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';

/** Records every call; optionally holds calls until released, to test in-flight sharing. */
class RecordingProvider implements EmbeddingProvider {
  readonly name = 'recording';
  readonly model = 'hash-under-test';
  readonly dimensions = 16;
  readonly calls: string[][] = [];
  failNext = false;
  private readonly hash = new HashEmbeddingProvider(16);
  private gate?: Promise<void>;
  private openGate?: () => void;

  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push([...texts]);
    if (this.gate) await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('inner provider failed');
    }
    return this.hash.embed(texts);
  }
}

describe('CachedEmbeddingProvider', () => {
  let inner: RecordingProvider;
  let cached: CachedEmbeddingProvider;

  beforeEach(() => {
    inner = new RecordingProvider();
    cached = new CachedEmbeddingProvider(inner, 3);
  });

  it('exposes the inner provider’s name, model and dimensions', () => {
    expect([cached.name, cached.model, cached.dimensions]).toEqual(['recording', 'hash-under-test', 16]);
  });

  it('answers repeated texts from the cache without calling the inner provider', async () => {
    const first = await cached.embed(['a', 'b']);
    const second = await cached.embed(['b', 'a']);
    expect(inner.calls).toEqual([['a', 'b']]);
    expect(second).toEqual([first[1], first[0]]);
  });

  it('sends only the misses, together in one call, and keeps the caller’s order', async () => {
    await cached.embed(['a', 'b']);
    const result = await cached.embed(['x', 'a', 'y', 'b']);
    expect(inner.calls).toEqual([
      ['a', 'b'],
      ['x', 'y'],
    ]);
    expect(result).toEqual(await new HashEmbeddingProvider(16).embed(['x', 'a', 'y', 'b']));
  });

  it('sends a text repeated within one call only once', async () => {
    const result = await cached.embed(['a', 'a', 'b', 'a']);
    expect(inner.calls).toEqual([['a', 'b']]);
    expect(result[3]).toEqual(result[0]);
  });

  it('evicts the least recently used entry first', async () => {
    await cached.embed(['a', 'b', 'c']);
    await cached.embed(['a']); // a is now the most recent; b is the oldest
    await cached.embed(['d']); // evicts b
    expect(cached.size).toBe(3);
    await cached.embed(['a', 'c', 'd']);
    expect(inner.calls).toEqual([['a', 'b', 'c'], ['d']]);
    await cached.embed(['b']);
    expect(inner.calls).toEqual([['a', 'b', 'c'], ['d'], ['b']]);
  });

  it('shares one in-flight request between concurrent callers', async () => {
    inner.hold();
    const first = cached.embed(['q']);
    const second = cached.embed(['q', 'r']);
    inner.release();
    const [[q1], [q2, r]] = await Promise.all([first, second]);
    expect(inner.calls).toEqual([['q'], ['r']]);
    expect(q2).toEqual(q1);
    expect(r).toHaveLength(16);
  });

  it('does not cache failures: the next call asks again', async () => {
    inner.failNext = true;
    await expect(cached.embed(['a'])).rejects.toThrow('inner provider failed');
    await expect(cached.embed(['a'])).resolves.toHaveLength(1);
    expect(inner.calls).toEqual([['a'], ['a']]);
  });

  it('fails every caller waiting on a shared request that fails', async () => {
    inner.hold();
    inner.failNext = true;
    const first = cached.embed(['q']);
    const second = cached.embed(['q']);
    inner.release();
    await expect(first).rejects.toThrow('inner provider failed');
    await expect(second).rejects.toThrow('inner provider failed');
  });

  it('returns copies, so a caller editing a vector cannot corrupt the cache', async () => {
    const [v] = await cached.embed(['a']);
    v[0] = 42;
    const [again] = await cached.embed(['a']);
    expect(again[0]).not.toBe(42);
  });

  it('defaults to 1000 entries and rejects a capacity below 1', () => {
    expect(new CachedEmbeddingProvider(inner).capacity).toBe(1000);
    expect(() => new CachedEmbeddingProvider(inner, 0)).toThrow(RangeError);
  });
});
