import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../../src/common/project-root';
import { EmbeddingProvider } from '../../src/embeddings/embedding-provider';
import { dot } from '../../src/embeddings/vector-math';

/**
 * Scoring of labelled text pairs against the lesson-matching threshold. Shared by
 * scripts/eval-embeddings.ts (numbers for people) and the threshold test (a guard in CI).
 */

export const LESSON_MATCH_THRESHOLD = 0.75;

export const PAIR_LABELS = ['paraphrase', 'related', 'unrelated'] as const;
export type PairLabel = (typeof PAIR_LABELS)[number];

export interface LabelledPair {
  a: string;
  b: string;
  label: PairLabel;
}

export interface ScoredPair extends LabelledPair {
  cosine: number;
}

export interface LabelSummary {
  label: PairLabel;
  count: number;
  min: number;
  p10: number;
  median: number;
  p90: number;
  max: number;
  /** Paraphrases below the threshold or unrelated pairs at/above it; related pairs have no wrong side. */
  wrongSide: number | null;
  /** How many reach the threshold (for related pairs, the interesting number). */
  atOrAbove: number;
  /** Up to `worstCount` pairs closest to (or past) the wrong side. */
  worst: ScoredPair[];
}

export function defaultPairsPath(): string {
  return join(findProjectRoot(), 'test', 'fixtures', 'embedding-pairs.json');
}

export function parseLabelledPairs(json: unknown): LabelledPair[] {
  const pairs = (json as { pairs?: unknown })?.pairs;
  if (!Array.isArray(pairs)) throw new Error('expected { "pairs": [...] }');
  return pairs.map((p: unknown, i) => {
    const { a, b, label } = (p ?? {}) as Record<string, unknown>;
    if (typeof a !== 'string' || typeof b !== 'string' || !PAIR_LABELS.includes(label as PairLabel)) {
      throw new Error(`pair ${i}: expected { a: string, b: string, label: ${PAIR_LABELS.join('|')} }`);
    }
    return { a, b, label: label as PairLabel };
  });
}

export function loadLabelledPairs(path: string = defaultPairsPath()): LabelledPair[] {
  return parseLabelledPairs(JSON.parse(readFileSync(path, 'utf8')));
}

/** Embeds every distinct text once, in one call, then scores each pair. */
export async function scorePairs(provider: EmbeddingProvider, pairs: readonly LabelledPair[]): Promise<ScoredPair[]> {
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const vectors = await provider.embed(texts);
  const byText = new Map(texts.map((t, i) => [t, vectors[i]]));
  return pairs.map((p) => ({ ...p, cosine: dot(byText.get(p.a)!, byText.get(p.b)!) }));
}

/** Linear interpolation between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = q * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export function summarise(scored: readonly ScoredPair[], threshold = LESSON_MATCH_THRESHOLD, worstCount = 3): LabelSummary[] {
  return PAIR_LABELS.map((label) => {
    const pairs = scored.filter((p) => p.label === label);
    const sorted = pairs.map((p) => p.cosine).sort((x, y) => x - y);
    const atOrAbove = sorted.filter((c) => c >= threshold).length;
    const wrongSide = label === 'paraphrase' ? pairs.length - atOrAbove : label === 'unrelated' ? atOrAbove : null;
    // Paraphrases are worst when lowest, unrelated when highest; related pairs: both ends.
    const worst =
      label === 'paraphrase'
        ? [...pairs].sort((x, y) => x.cosine - y.cosine)
        : label === 'unrelated'
          ? [...pairs].sort((x, y) => y.cosine - x.cosine)
          : [...pairs].sort((x, y) => Math.abs(x.cosine - threshold) - Math.abs(y.cosine - threshold));
    return {
      label,
      count: pairs.length,
      min: sorted[0] ?? Number.NaN,
      p10: quantile(sorted, 0.1),
      median: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      max: sorted[sorted.length - 1] ?? Number.NaN,
      wrongSide,
      atOrAbove,
      worst: worst.slice(0, worstCount),
    };
  });
}
