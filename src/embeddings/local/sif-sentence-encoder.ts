import { GloveVocabulary } from './glove-vocabulary';
import { sifWeight } from './sif-weights';

/** A text word found in the vocabulary. */
export interface KnownWord {
  index: number;
  weight: number;
}

/**
 * Looks up each word; a hyphenated word the vocabulary does not know is tried part by part
 * ("seven-year-old" is known, "user-facing" is not but "user" and "facing" are).
 */
export function knownWords(vocabulary: GloveVocabulary, words: readonly string[], a: number): KnownWord[] {
  const out: KnownWord[] = [];
  const push = (word: string): boolean => {
    const index = vocabulary.indexOf(word);
    if (index < 0) return false;
    out.push({ index, weight: sifWeight(vocabulary.rank(index), a) });
    return true;
  };
  for (const word of words) {
    if (push(word) || !word.includes('-')) continue;
    for (const part of word.split('-')) if (part) push(part);
  }
  return out;
}

/**
 * SIF sentence vector into `target[offset .. offset + dims)`: the weighted average of the word
 * vectors with the common components projected out. Returns false when no word was known
 * (the slice is then all zeros).
 */
export function sifSentenceVector(
  vocabulary: GloveVocabulary,
  words: readonly KnownWord[],
  components: readonly Float32Array[],
  target: Float64Array,
  offset = 0,
): boolean {
  if (words.length === 0) return false;
  for (const { index, weight } of words) vocabulary.addVector(index, weight / words.length, target, offset);
  removeComponents(target, offset, components);
  return true;
}

/** v -= sum_k (u_k . v) u_k for unit vectors u_k (assumed orthonormal). */
export function removeComponents(target: Float64Array, offset: number, components: readonly Float32Array[]): void {
  for (const u of components) {
    let projection = 0;
    for (let d = 0; d < u.length; d++) projection += u[d] * target[offset + d];
    for (let d = 0; d < u.length; d++) target[offset + d] -= projection * u[d];
  }
}
