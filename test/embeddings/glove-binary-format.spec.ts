import { decodeGlove, encodeGlove, GloveData, StaleGloveFileError } from '../../src/embeddings/local/glove-binary-format';
import { GloveVocabulary } from '../../src/embeddings/local/glove-vocabulary';

const data: GloveData = {
  paramsHash: 1234,
  dimensions: 3,
  sourceWordCount: 10,
  words: ['the', 'café', 'e-mail'],
  ranks: Uint32Array.from([0, 4, 7]),
  scales: Float32Array.from([0.5, 1, 2]),
  vectors: Int8Array.from([1, 2, 3, -4, 5, -6, 127, -127, 0]),
  componentCount: 1,
  components: Float32Array.from([1, 0, 0]),
};

describe('GloVe binary format', () => {
  it('round-trips words, ranks, vectors and components', () => {
    const vocabulary = new GloveVocabulary(decodeGlove(encodeGlove(data), 1234));
    expect(['the', 'café', 'e-mail', 'cafe'].map((w) => vocabulary.indexOf(w))).toEqual([0, 1, 2, -1]);
    expect(vocabulary.rank(2)).toBe(7);
    const v = new Float64Array(3);
    vocabulary.addVector(1, 2, v);
    expect(Array.from(v)).toEqual([-8, 10, -12]);
    expect(vocabulary.components.map((c) => Array.from(c))).toEqual([[1, 0, 0]]);
  });

  it('reads a file whose bytes do not start on a 4-byte boundary', () => {
    const file = encodeGlove(data);
    const shifted = Buffer.alloc(file.length + 1);
    file.copy(shifted, 1);
    const vocabulary = new GloveVocabulary(decodeGlove(shifted.subarray(1), 1234));
    expect(vocabulary.indexOf('e-mail')).toBe(2);
  });

  it('refuses a file built with other parameters', () => {
    expect(() => decodeGlove(encodeGlove(data), 999)).toThrow(StaleGloveFileError);
  });
});
