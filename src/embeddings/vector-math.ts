/** Small numeric helpers shared by the providers. */

// Global `Math` lookups are ~100x slower inside Jest's test context; these run per vector.
const { sqrt } = Math;

/** Euclidean norm of `v[offset .. offset + length)`. */
export function norm(v: ArrayLike<number>, offset = 0, length = v.length - offset): number {
  let sum = 0;
  for (let i = offset; i < offset + length; i++) sum += v[i] * v[i];
  return sqrt(sum);
}

/**
 * Scales `v[offset .. offset + length)` to length `targetNorm`. Returns false (and leaves the
 * slice untouched) when it is all zeros, so callers decide what an empty part means.
 */
export function normaliseSlice(v: Float64Array, offset = 0, length = v.length - offset, targetNorm = 1): boolean {
  const n = norm(v, offset, length);
  if (n === 0 || !Number.isFinite(n)) return false;
  const scale = targetNorm / n;
  for (let i = offset; i < offset + length; i++) v[i] *= scale;
  return true;
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`dot: length ${a.length} != ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot(a, b) / denominator;
}
