import { findInputProblem, MAX_JSON_DEPTH } from '../../src/common/validation/request-input';

const nest = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('findInputProblem (NUL, lone surrogates and depth, before any DTO)', () => {
  it('accepts ordinary input, including paired surrogates (emoji)', () => {
    expect(
      findInputProblem({ user_id: 'alice', query: 'café 😀', metadata: { tags: ['a', 'b'], n: 1, ok: true, none: null } }),
    ).toBeUndefined();
  });

  it.each([
    [{ user_id: 'a\u0000b' }, 'user_id must not contain NUL characters'],
    [{ metadata: { notes: ['x', 'y\u0000'] } }, 'metadata.notes[1] must not contain NUL characters'],
    [{ metadata: { 'k\u0000': 1 } }, 'metadata field names must not contain NUL characters'],
    [{ metadata: { note: 'x\uD800' } }, 'metadata.note must not contain unpaired UTF-16 surrogates'],
    [{ metadata: { note: '\uDC00x' } }, 'metadata.note must not contain unpaired UTF-16 surrogates'],
    [{ metadata: { '\uDFFF': 'v' } }, 'metadata field names must not contain unpaired UTF-16 surrogates'],
    [{ 'a\u0000': 1 }, 'body field names must not contain NUL characters'],
    [['\u0000'], 'body[0] must not contain NUL characters'],
  ])('names the field of %j', (input, message) => {
    expect(findInputProblem(input)).toBe(message);
  });

  it('names the query when the input is a query string', () => {
    expect(findInputProblem({ user_id: '\u0000' }, 'query')).toBe('user_id must not contain NUL characters');
    expect(findInputProblem({ '\u0000': 'x' }, 'query')).toBe('query field names must not contain NUL characters');
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(findInputProblem(nest(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findInputProblem(nest(MAX_JSON_DEPTH + 1))).toMatch(/nests deeper than 32 levels$/);
  });

  it('walks a body nested 100,000 levels deep without overflowing the stack', () => {
    expect(findInputProblem(nest(100_000))).toMatch(/nests deeper than 32 levels$/);
  });
});
