import { crc32 } from 'node:zlib';

import { textWords } from '../text-tokens';
import { decodeGlove, encodeGlove, GloveData } from './glove-binary-format';
import { GloveVocabulary } from './glove-vocabulary';
import { SecondMoment } from './principal-components';
import { KnownWord, sifSentenceVector } from './sif-sentence-encoder';
import { MEMORY_COMMON_WORDS, sifWeight, zipfProbability } from './sif-weights';
import { readWinkVectors } from './wink-json-reader';

/**
 * Everything that shapes the binary. Changing any value changes `paramsHash`, so existing
 * cache files are rebuilt on next use.
 */
export interface GloveBuildParams {
  /** Most frequent words kept. 200k covers ordinary vocabulary plus common names and tech terms. */
  vocabularySize: number;
  /** SIF `a`, used both here (for the sample sentences) and at embedding time. */
  sifA: number;
  /** Frequency ranks to store instead of the source's (see MEMORY_COMMON_WORDS). */
  rankOverrides: Readonly<Record<string, number>>;
  /** Common sentence directions to remove. */
  componentCount: number;
  /** Pseudo-sentences drawn from the Zipf distribution to estimate those directions. */
  sampleSentences: number;
  sampleMinWords: number;
  sampleMaxWords: number;
  seed: number;
}

export const DEFAULT_GLOVE_BUILD_PARAMS: GloveBuildParams = {
  vocabularySize: 200_000,
  // a and the number of components were chosen on test/fixtures/embedding-pairs.json: 2e-4
  // with two components gave the widest gap between the lowest paraphrase and the highest
  // unrelated pair (0.10 in semantic cosine); a = 1e-3 (the paper's default) left 0.07, and
  // removing a single component left no gap at all.
  sifA: 2e-4,
  rankOverrides: MEMORY_COMMON_WORDS,
  componentCount: 2,
  sampleSentences: 10_000,
  sampleMinWords: 5,
  sampleMaxWords: 20,
  seed: 20261121,
};

export function gloveParamsHash(params: GloveBuildParams): number {
  return crc32(JSON.stringify(params));
}

export interface GloveBuildReport {
  sourceWords: number;
  keptWords: number;
  parseMs: number;
  totalMs: number;
  bytes: number;
}

// Local aliases: global `Math` lookups are ~100x slower inside Jest's test context, which made
// the build take 25 s there instead of 3 s.
const { abs, floor, imul, max, min, round } = Math;

/** Keeps only words our tokeniser can produce: "anti-" or "$" could never be looked up. */
function isTokenisable(word: string): boolean {
  const words = textWords(word);
  return words.length === 1 && words[0] === word;
}

/** int8 with one scale per vector: |error| <= max|v| / 254, far below GloVe's own noise. */
function quantiseInto(values: ArrayLike<number>, vectors: Int8Array, offset: number): number {
  let maxAbs = 0;
  for (let d = 0; d < values.length; d++) maxAbs = max(maxAbs, abs(values[d]));
  const scale = maxAbs === 0 ? 1 : maxAbs / 127;
  for (let d = 0; d < values.length; d++) vectors[offset + d] = max(-127, min(127, round(values[d] / scale)));
  return scale;
}

/** Small seeded PRNG (mulberry32): the same source and parameters give the same file. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The common component has to come from sentence vectors, but no sentence corpus ships with the
 * vectors. Sentences drawn word by word from the Zipf distribution share exactly what real
 * sentences share (frequent words, the frequency direction of GloVe), which is what SIF removes.
 */
export function estimateCommonComponents(vocabulary: GloveVocabulary, params: GloveBuildParams): Float32Array[] {
  if (params.componentCount === 0) return [];
  const cdf = new Float64Array(vocabulary.size);
  let total = 0;
  for (let i = 0; i < vocabulary.size; i++) {
    total += zipfProbability(vocabulary.rank(i));
    cdf[i] = total;
  }
  const random = seededRandom(params.seed);
  const draw = (): number => {
    const target = random() * total;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const moment = new SecondMoment(vocabulary.dimensions);
  const row = new Float64Array(vocabulary.dimensions);
  const words: KnownWord[] = [];
  const span = params.sampleMaxWords - params.sampleMinWords + 1;
  for (let s = 0; s < params.sampleSentences; s++) {
    const length = params.sampleMinWords + floor(random() * span);
    words.length = 0;
    for (let w = 0; w < length; w++) {
      const index = draw();
      words.push({ index, weight: sifWeight(vocabulary.rank(index), params.sifA) });
    }
    row.fill(0);
    sifSentenceVector(vocabulary, words, [], row);
    moment.add(row);
  }
  return moment.topDirections(params.componentCount);
}

/** Converts the wink JSON bytes into the compact binary. CPU-bound, about 2-4 s. */
export function buildGloveFile(source: Buffer, params: GloveBuildParams): { file: Buffer; report: GloveBuildReport } {
  const started = performance.now();
  // The tokeniser drops a few source entries (punctuation, "anti-"), so read a little past N.
  // Vectors are quantised as they are read, into arrays indexed by rank: the build then needs
  // little beyond the source file's own bytes.
  const rankLimit = Math.ceil(params.vocabularySize * 1.05) + 1000;
  let vectorsByRank = new Int8Array(0);
  const scalesByRank = new Float32Array(rankLimit);
  const wordsByRank: (string | undefined)[] = [];
  const header = readWinkVectors(source, (word, rank, values) => {
    if (rank >= rankLimit || !isTokenisable(word)) return;
    if (vectorsByRank.length === 0) vectorsByRank = new Int8Array(rankLimit * values.length);
    scalesByRank[rank] = quantiseInto(values, vectorsByRank, rank * values.length);
    wordsByRank[rank] = word;
  });
  const parseMs = performance.now() - started;
  const dims = header.dimensions;

  const keptRanks: number[] = [];
  for (let rank = 0; rank < wordsByRank.length && keptRanks.length < params.vocabularySize; rank++) {
    if (wordsByRank[rank] !== undefined) keptRanks.push(rank);
  }
  if (keptRanks.length === 0) throw new Error('the word vector source contains no usable words');
  const words = keptRanks.map((rank) => wordsByRank[rank] as string);
  const vectors = new Int8Array(keptRanks.length * dims);
  keptRanks.forEach((rank, i) => vectors.set(vectorsByRank.subarray(rank * dims, (rank + 1) * dims), i * dims));

  const data: GloveData = {
    paramsHash: gloveParamsHash(params),
    dimensions: dims,
    sourceWordCount: header.size,
    words,
    ranks: Uint32Array.from(keptRanks, (rank, i) => params.rankOverrides[words[i]] ?? rank),
    scales: Float32Array.from(keptRanks, (rank) => scalesByRank[rank]),
    vectors,
    componentCount: 0,
    components: new Float32Array(0),
  };
  // Components are estimated on the quantised vectors, exactly as they will be used.
  const draft = new GloveVocabulary(decodeGlove(encodeGlove(data), data.paramsHash));
  const components = estimateCommonComponents(draft, params);
  const file = encodeGlove({
    ...data,
    componentCount: components.length,
    components: Float32Array.from(components.flatMap((c) => Array.from(c))),
  });
  return {
    file,
    report: {
      sourceWords: header.size,
      keptWords: words.length,
      parseMs,
      totalMs: performance.now() - started,
      bytes: file.length,
    },
  };
}
