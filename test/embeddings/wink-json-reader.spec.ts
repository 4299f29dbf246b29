import { readWinkVectors, WinkFormatError } from '../../src/embeddings/local/wink-json-reader';

const header = '"precision":8,"l2NormIndex":3,"wordIndex":4,"size":3,"dimensions":3';

function read(json: string) {
  const seen: { word: string; rank: number; values: number[] }[] = [];
  const result = readWinkVectors(Buffer.from(json), (word, rank, values) => seen.push({ word, rank, values: Array.from(values) }));
  return { result, seen };
}

describe('readWinkVectors', () => {
  it('reads words, ranks and values, skipping fields it does not need', () => {
    const { result, seen } = read(
      `{${header},"words":["the","\\"","café"],"vectors":{` +
        `"the":[0.5,-1.25,1e-3,1.4,0],"\\"":[-0.0,2E+1,3,3.6,1],"café":[1,2,3,3.7,2]},"unkVector":[0,0,0,0,-1]}`,
    );
    expect(result).toEqual({ l2NormIndex: 3, wordIndex: 4, size: 3, dimensions: 3 });
    expect(seen).toEqual([
      { word: 'the', rank: 0, values: [0.5, -1.25, 0.001] },
      { word: '"', rank: 1, values: [-0, 20, 3] },
      { word: 'café', rank: 2, values: [1, 2, 3] },
    ]);
  });

  it.each([
    ['a vector of the wrong length', `{${header},"vectors":{"the":[1,2,3,4]}}`, /has 4 values, expected 5/],
    ['a missing header before the vectors', '{"vectors":{"the":[1,2,3,4,0]}}', /"dimensions" missing/],
    ['no vectors at all', `{${header},"words":[]}`, /no "vectors" object/],
    ['a fractional rank', `{${header},"vectors":{"the":[1,2,3,4,0.5]}}`, /rank 0.5/],
    ['truncated input', `{${header},"vectors":{"the":[1,2,3,4,0]`, /expected/],
  ])('rejects %s', (_case, json, message) => {
    expect(() => read(json)).toThrow(WinkFormatError);
    expect(() => read(json)).toThrow(message);
  });
});
