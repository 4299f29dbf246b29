/**
 * Signed feature hashing of word unigrams, word bigrams and character 3-grams.
 *
 * Used alone by the hash provider and as the lexical half of the local provider, where it
 * carries what word vectors miss: names, numbers, identifiers and out-of-vocabulary words.
 */

// Local aliases: under Jest every lookup of the global `Math` goes through the test context's
// global object and costs ~100x a plain call, which turns millisecond loops into seconds.
const { imul, log, max, sqrt } = Math;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// Distinct starting states keep "ab" as a word, a bigram and a trigram in different buckets.
const SEED_UNIGRAM = fnv1a('u\u0000');
const SEED_BIGRAM = fnv1a('b\u0000');
const SEED_TRIGRAM = fnv1a('c\u0000');

/** FNV-1a, 32 bits, over UTF-16 code units; `seed` chains hashes without building strings. */
export function fnv1a(text: string, seed: number = FNV_OFFSET): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * Murmur3's finaliser. FNV's high bits are poorly mixed, so the sign comes from a mixed copy
 * rather than from the same bits that chose the bucket.
 */
function mix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface LexicalFeatureWeights {
  unigram: number;
  bigram: number;
  trigram: number;
}

export const DEFAULT_LEXICAL_WEIGHTS: LexicalFeatureWeights = { unigram: 1, bigram: 0.6, trigram: 0.35 };

/** Per-word importance in [0, 1]; the local provider passes its SIF weights. */
export type TokenWeight = (token: string) => number;

interface FeatureCount {
  count: number;
  weight: number;
}

function addFeature(features: Map<number, FeatureCount>, hash: number, weight: number): void {
  const found = features.get(hash);
  if (found) {
    found.count += 1;
    found.weight = max(found.weight, weight);
  } else {
    features.set(hash, { count: 1, weight });
  }
}

/**
 * Adds the hashed features of `tokens` into `target[offset .. offset + length)` (not
 * normalised). Term frequency is sublinear (1 + ln tf) so a repeated word cannot dominate.
 */
export function addHashedFeatures(
  target: Float64Array,
  offset: number,
  length: number,
  tokens: readonly string[],
  weights: LexicalFeatureWeights = DEFAULT_LEXICAL_WEIGHTS,
  tokenWeight?: TokenWeight,
): void {
  const features = new Map<number, FeatureCount>();
  const tokenWeights = tokens.map((token) => (tokenWeight ? tokenWeight(token) : 1));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const w = tokenWeights[i];
    if (weights.unigram > 0) addFeature(features, fnv1a(token, SEED_UNIGRAM), w * weights.unigram);
    if (weights.bigram > 0 && i + 1 < tokens.length) {
      const pair = fnv1a(tokens[i + 1], fnv1a(' ', fnv1a(token, SEED_BIGRAM)));
      addFeature(features, pair, sqrt(w * tokenWeights[i + 1]) * weights.bigram);
    }
    if (weights.trigram > 0) {
      const padded = `<${token}>`;
      for (let c = 0; c + 3 <= padded.length; c++) {
        addFeature(features, fnv1a(padded.slice(c, c + 3), SEED_TRIGRAM), w * weights.trigram);
      }
    }
  }
  for (const [hash, { count, weight }] of features) {
    const bucket = offset + (hash % length);
    const sign = mix32(hash) & 1 ? -1 : 1;
    target[bucket] += sign * weight * (1 + log(count));
  }
}
