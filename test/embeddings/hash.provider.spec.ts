import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';
import { dot, norm } from '../../src/embeddings/vector-math';

describe('HashEmbeddingProvider', () => {
  const provider = new HashEmbeddingProvider(384);

  it('returns the same vector for the same text, across instances', async () => {
    const [a] = await provider.embed(['The user prefers window seats on flights']);
    const [b] = await new HashEmbeddingProvider(384).embed(['The user prefers window seats on flights']);
    expect(a).toEqual(b);
  });

  it('returns unit vectors of the configured length', async () => {
    const vectors = await provider.embed(['short', 'a much longer sentence about database migrations and API servers', '7:40 on March 12']);
    for (const v of vectors) {
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
  });

  it('gives empty, whitespace-only and punctuation-only text a valid unit vector', async () => {
    const vectors = await provider.embed(['', '   \n\t', '?!...', '—']);
    for (const v of vectors) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
  });

  it('ignores case, punctuation and Unicode compatibility forms', async () => {
    const [a, b] = await provider.embed(['The user’s API key!', "the USER'S api key"]);
    expect(dot(a, b)).toBeCloseTo(1, 10);
  });

  it('ranks a near-duplicate above a text on the same subject above an unrelated text', async () => {
    const [query, nearDuplicate, sameSubject, unrelated] = await provider.embed([
      'always run the database migrations before restarting the API server',
      'always run database migrations before you restart the API server',
      'the API server restarts automatically after a crash',
      'the user is allergic to peanuts',
    ]);
    expect(dot(query, nearDuplicate)).toBeGreaterThan(dot(query, sameSubject));
    expect(dot(query, sameSubject)).toBeGreaterThan(dot(query, unrelated));
  });

  it('keeps word order through bigrams', async () => {
    const [a, b, c] = await provider.embed(['dog bites man', 'dog bites man', 'man bites dog']);
    expect(dot(a, b)).toBeCloseTo(1, 10);
    expect(dot(a, c)).toBeLessThan(0.95);
  });

  it('works for any dimensions from 16 and rejects fewer', async () => {
    const [v] = await new HashEmbeddingProvider(16).embed(['tiny vector']);
    expect(v).toHaveLength(16);
    expect(norm(v)).toBeCloseTo(1, 10);
    expect(() => new HashEmbeddingProvider(8)).toThrow(/dimensions >= 16/);
    expect(() => new HashEmbeddingProvider(100.5)).toThrow(RangeError);
  });
});
