import type { SanitizerFinding } from '../sanitizer/sanitizer.types';
import { conceptsOf } from './concept-lexicon';

/**
 * Features of the write-gate classifier, hashed into 2^FEATURE_BITS buckets: character 3-5-grams
 * and word uni/bi-grams (plus five-letter word prefixes) of the sanitizer's normalised text (square-root term counts, each block
 * scaled to unit length), plus one feature per sanitizer finding (rule, category and severity;
 * obfuscation signals arrive as obfuscation findings), a length bucket, and the attack concepts
 * of concept-lexicon.ts with every pair of them (a block of its own, also scaled to unit length).
 */
export const FEATURE_BITS = 18;
export const FEATURE_COUNT = 1 << FEATURE_BITS;
const MASK = FEATURE_COUNT - 1;

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

const SEED_CHAR = 0x811c9dc5;
const SEED_WORD = 0x2545f491;
const SEED_BIGRAM = 0x9e3779b9;
const SEED_META = 0x85ebca6b;
const FNV_PRIME = 0x01000193;
/** Module-level: a global lookup per call is slow where the global object is a sandbox (Jest). */
const imul = Math.imul;
const MAX_GRAM = 5;
const MIN_GRAM = 3;
const WORD = /[\p{L}\p{N}_]+/gu;

/** Murmur3's finaliser: spreads FNV's low bits before masking. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return mix(h);
}

/** Accumulates one block of counts; reused between calls so a call allocates only its output. */
class Block {
  private readonly counts = new Float32Array(FEATURE_COUNT);
  private touched: number[] = [];

  add(index: number): void {
    if (this.counts[index] === 0) this.touched.push(index);
    this.counts[index] += 1;
  }

  /** Appends sqrt(count) / norm for every touched bucket, then clears the block. */
  drainInto(indices: number[], values: number[], weight: number): void {
    let norm = 0;
    for (const index of this.touched) norm += this.counts[index];
    const scale = norm > 0 ? weight / Math.sqrt(norm) : 0;
    for (const index of this.touched) {
      indices.push(index);
      values.push(Math.sqrt(this.counts[index]) * scale);
      this.counts[index] = 0;
    }
    this.touched = [];
  }
}

const chars = new Block();
const words = new Block();
const concepts = new Block();

export function featurize(normalized: string, findings: readonly SanitizerFinding[]): SparseVector {
  const text = ` ${normalized.replace(/\s+/g, ' ')} `;
  for (let start = 0; start + MIN_GRAM <= text.length; start++) {
    let h = SEED_CHAR;
    const end = start + MAX_GRAM < text.length ? start + MAX_GRAM : text.length;
    for (let i = start; i < end; i++) {
      h = imul(h ^ text.charCodeAt(i), FNV_PRIME);
      if (i - start + 1 >= MIN_GRAM) chars.add(mix(h) & MASK);
    }
  }
  let previous = -1;
  for (const match of normalized.matchAll(WORD)) {
    const word = hashString(match[0], SEED_WORD);
    words.add(word & MASK);
    // The first five letters as a word of their own: "instructions", "instrucciones" and
    // "instrukcje" meet at "instr", "passwords" and "passwort" at "passw".
    if (match[0].length > 5) words.add(hashString(match[0].slice(0, 5), SEED_BIGRAM) & MASK);
    if (previous >= 0) words.add(mix(imul(previous ^ SEED_BIGRAM, FNV_PRIME) ^ word) & MASK);
    previous = word;
  }

  const indices: number[] = [];
  const values: number[] = [];
  const present = conceptsOf(normalized);
  for (let a = 0; a < present.length; a++) {
    concepts.add(hashString(present[a], SEED_META) & MASK);
    for (let b = a + 1; b < present.length; b++) concepts.add(hashString(`${present[a]}+${present[b]}`, SEED_META) & MASK);
  }

  chars.drainInto(indices, values, 1);
  words.drainInto(indices, values, 1);
  concepts.drainInto(indices, values, 1);
  const meta = new Set<string>([`len:${Math.min(12, Math.floor(Math.log2(normalized.length + 1)))}`]);
  for (const finding of findings) {
    meta.add(`rule:${finding.ruleId}:${finding.severity}`);
    meta.add(`category:${finding.category}:${finding.severity}`);
  }
  for (const feature of meta) {
    indices.push(hashString(feature, SEED_META) & MASK);
    values.push(1);
  }
  return { indices: Int32Array.from(indices), values: Float32Array.from(values) };
}

export function dot(weights: Float32Array, vector: SparseVector): number {
  let sum = 0;
  for (let i = 0; i < vector.indices.length; i++) sum += weights[vector.indices[i]] * vector.values[i];
  return sum;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
