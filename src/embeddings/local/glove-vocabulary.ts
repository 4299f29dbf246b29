import { fnv1a } from '../feature-hashing';
import { DecodedGlove } from './glove-binary-format';

/** Read-only access to the decoded binary: word lookup and dequantised vectors. */
export class GloveVocabulary {
  readonly dimensions: number;
  readonly size: number;
  private readonly mask: number;

  constructor(private readonly data: DecodedGlove) {
    this.dimensions = data.dimensions;
    this.size = data.wordCount;
    this.mask = data.table.length - 1;
  }

  /** Common sentence directions stored at build time, each `dimensions` long and unit length. */
  get components(): Float32Array[] {
    const out: Float32Array[] = [];
    for (let k = 0; k < this.data.componentCount; k++) {
      out.push(this.data.components.subarray(k * this.dimensions, (k + 1) * this.dimensions));
    }
    return out;
  }

  /** Index of `word` (already normalised), or -1. */
  indexOf(word: string): number {
    const { table, hashes } = this.data;
    const hash = fnv1a(word);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = table[slot];
      if (entry === 0) return -1;
      const index = entry - 1;
      if (hashes[index] === hash && this.word(index) === word) return index;
    }
  }

  word(index: number): string {
    const { offsets, wordBytes } = this.data;
    return wordBytes.toString('utf8', offsets[index], offsets[index + 1]);
  }

  /** 0-based frequency rank in the source file. */
  rank(index: number): number {
    return this.data.ranks[index];
  }

  /** target[offset + d] += weight * vector(index)[d] */
  addVector(index: number, weight: number, target: Float64Array, offset = 0): void {
    const { vectors, scales } = this.data;
    const dims = this.dimensions;
    const scale = weight * scales[index];
    const start = index * dims;
    for (let d = 0; d < dims; d++) target[offset + d] += scale * vectors[start + d];
  }
}
