/** Deterministic randomness for the benchmark corpus: the same seed gives the same corpus. */

/** sfc32: small, fast, good enough for synthetic data; seeded through splitmix32. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index in [0, n) with probability proportional to 1 / (i + 1)^s (Zipf). */
  zipfIndex(cumulative: Float64Array): number {
    const x = this.next() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A version-4-shaped UUID drawn from this generator (deterministic, unlike randomUUID). */
  uuid(): string {
    const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
    const w = [this.next(), this.next(), this.next(), this.next()].map((x) => hex(Math.floor(x * 4294967296)));
    const s = w.join('');
    const variant = ((parseInt(s[16], 16) & 0x3) | 0x8).toString(16);
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20, 32)}`;
  }
}

/** Cumulative Zipf weights for n items with exponent s (for Rng.zipfIndex). */
export function zipfCumulative(n: number, s: number): Float64Array {
  const out = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / Math.pow(i + 1, s);
    out[i] = total;
  }
  return out;
}

/**
 * A unit vector of `dims` components from a 32-bit seed (xorshift32): the same seed gives the
 * same vector. For the small benchmarks that seed their own memories.
 */
export function seededUnitVector(seed: number, dims = 384): number[] {
  let x = seed >>> 0 || 1;
  const v = Array.from({ length: dims }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 2 ** 32) * 2 - 1;
  });
  const n = Math.hypot(...v);
  return v.map((c) => c / n);
}

/** The p-th percentile (nearest rank, p in 0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
