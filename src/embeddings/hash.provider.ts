import { EmbeddingProvider } from './embedding-provider';
import { addHashedFeatures, DEFAULT_LEXICAL_WEIGHTS, LexicalFeatureWeights } from './feature-hashing';
import { lexicalTokens } from './text-tokens';
import { normaliseSlice } from './vector-math';

export const HASH_MIN_DIMENSIONS = 16;
export const HASH_EMBEDDING_MODEL = 'feature-hash-v1';

/**
 * Purely lexical embeddings: signed feature hashing of words, word pairs and character
 * 3-grams. Deterministic and instant; for tests and for deployments that only need
 * near-duplicate detection. It knows no synonyms: "car" and "automobile" are unrelated here.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'hash';
  readonly model = HASH_EMBEDDING_MODEL;

  constructor(
    readonly dimensions: number,
    private readonly weights: LexicalFeatureWeights = DEFAULT_LEXICAL_WEIGHTS,
  ) {
    if (!Number.isInteger(dimensions) || dimensions < HASH_MIN_DIMENSIONS) {
      throw new RangeError(`hash embeddings need an integer dimensions >= ${HASH_MIN_DIMENSIONS}, got ${dimensions}`);
    }
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): number[] {
    const v = new Float64Array(this.dimensions);
    addHashedFeatures(v, 0, this.dimensions, lexicalTokens(text), this.weights);
    // Text without a single word still needs a unit vector (the column rejects NaN): all such
    // texts share one fixed direction, which is also what "no content" should mean.
    if (!normaliseSlice(v)) v[0] = 1;
    return Array.from(v);
  }
}
