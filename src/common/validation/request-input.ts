/**
 * Checks every value of a request body or query string before any DTO sees it, in one
 * iterative walk (no recursion, so a hostile body cannot overflow the stack here):
 *
 * - nesting deeper than MAX_JSON_DEPTH: class-transformer and class-validator recurse into
 *   objects, and a body nested a few thousand levels deep overflowed the stack (a 500);
 * - NUL characters: PostgreSQL text and jsonb cannot hold U+0000 (a 500 at insert time);
 * - lone UTF-16 surrogates: jsonb refuses them, and text columns would silently store U+FFFD.
 *
 * Keys are checked as well as values (metadata keys end up in jsonb). The first problem is
 * reported with the path of the field (`metadata.notes[2]`), so the 400 names it.
 */

/** Objects and arrays inside objects and arrays: a body may nest this deep, no deeper. */
export const MAX_JSON_DEPTH = 32;

export type InputProblem = string;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

const childPath = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent || 'body'}[${key}]` : parent ? `${parent}.${key}` : key;

/** The first problem found in `root` (a parsed JSON body or query object), or undefined. */
export function findInputProblem(root: unknown, rootName = 'body'): InputProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) return `${path || rootName} ${problem}`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) return `${path || rootName} nests deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const problem = stringProblem(key);
      if (problem) return `${path || rootName} field names ${problem}`;
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (value as Record<string, unknown>)[keys[i]], path: childPath(path, keys[i]), depth: depth + 1 });
    }
  }
  return undefined;
}
