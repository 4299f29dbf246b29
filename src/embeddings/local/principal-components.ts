/**
 * Top principal directions via an accumulated second-moment matrix and power iteration with
 * deflation. The matrices here are tiny (100 x 100), so nothing cleverer is needed.
 *
 * Uncentred on purpose: as in the SIF paper, the direction removed is the one every sentence
 * vector shares, which is dominated by the mean rather than by the spread around it.
 */

// Global `Math` lookups are ~100x slower inside Jest's test context.
const { sqrt } = Math;

export class SecondMoment {
  private readonly upper: Float64Array;

  constructor(readonly dims: number) {
    this.upper = new Float64Array(dims * dims);
  }

  /** M += row rowᵀ (upper triangle only; the matrix is symmetric). */
  add(row: ArrayLike<number>): void {
    const { dims, upper } = this;
    for (let i = 0; i < dims; i++) {
      const ri = row[i];
      if (ri === 0) continue;
      const base = i * dims;
      for (let j = i; j < dims; j++) upper[base + j] += ri * row[j];
    }
  }

  /** The `count` leading unit eigenvectors, largest eigenvalue first. */
  topDirections(count: number, iterations = 300): Float32Array[] {
    const { dims, upper } = this;
    const at = (i: number, j: number) => (i <= j ? upper[i * dims + j] : upper[j * dims + i]);
    const found: Float64Array[] = [];
    for (let k = 0; k < count; k++) {
      // Deterministic start that is not orthogonal to anything in practice.
      let v = Float64Array.from({ length: dims }, (_, i) => 1 + ((i * 7919) % 13) / 13);
      for (let it = 0; it < iterations; it++) {
        const next = new Float64Array(dims);
        for (let i = 0; i < dims; i++) {
          let sum = 0;
          for (let j = 0; j < dims; j++) sum += at(i, j) * v[j];
          next[i] = sum;
        }
        for (const u of found) {
          let p = 0;
          for (let i = 0; i < dims; i++) p += u[i] * next[i];
          for (let i = 0; i < dims; i++) next[i] -= p * u[i];
        }
        let squares = 0;
        for (let i = 0; i < dims; i++) squares += next[i] * next[i];
        const n = sqrt(squares);
        if (n === 0) break;
        for (let i = 0; i < dims; i++) next[i] /= n;
        v = next;
      }
      found.push(v);
    }
    return found.map((v) => Float32Array.from(v));
  }
}
