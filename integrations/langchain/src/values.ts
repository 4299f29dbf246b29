/**
 * Plain helpers on LangGraph item values: the text a value is stored (and embedded) as, and
 * the `filter` of a store search (exact values or `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`).
 */

export type Value = Record<string, unknown>;

/** Strings at a dotted path (`a.b`, `list[*]`, `list[0]`); nothing when it leads nowhere. */
export function textsAt(value: unknown, path: string): string[] {
  let current: unknown[] = [value];
  for (const part of path.split('.')) {
    const match = /^(\w+)(?:\[(\*|-?\d+)\])?$/.exec(part);
    if (!match) return [];
    const [, name, index] = match;
    current = current.flatMap((node) => {
      const child = node && typeof node === 'object' ? (node as Value)[name] : undefined;
      if (index === undefined) return child === undefined ? [] : [child];
      if (!Array.isArray(child)) return [];
      if (index === '*') return child;
      const i = Number(index);
      const item = child[i < 0 ? child.length + i : i];
      return item === undefined ? [] : [item];
    });
  }
  return current.filter((node): node is string => typeof node === 'string');
}

/**
 * What Atrium stores and embeds for a value: the strings at `fields` when given, else the
 * value's `content` or `text` string, else the whole value as JSON.
 */
export function textOf(value: Value, fields?: readonly string[]): string {
  if (fields && fields.length > 0) {
    const texts = fields.flatMap((field) => textsAt(value, field));
    if (texts.length > 0) return texts.join('\n');
  }
  for (const name of ['content', 'text']) {
    const candidate = value[name];
    if (typeof candidate === 'string' && candidate.trim()) return candidate;
  }
  return JSON.stringify(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => deepEqual((a as Value)[key], (b as Value)[key]));
}

export const sameValue = deepEqual;

const OPERATORS: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  $eq: (a, e) => deepEqual(a, e),
  $ne: (a, e) => !deepEqual(a, e),
  $gt: (a, e) => typeof a === typeof e && (a as number) > (e as number),
  $gte: (a, e) => typeof a === typeof e && (a as number) >= (e as number),
  $lt: (a, e) => typeof a === typeof e && (a as number) < (e as number),
  $lte: (a, e) => typeof a === typeof e && (a as number) <= (e as number),
};

function isOperatorObject(expected: unknown): expected is Record<string, unknown> {
  return typeof expected === 'object' && expected !== null && !Array.isArray(expected) && Object.keys(expected).some((k) => k in OPERATORS);
}

export function matchesFilter(value: Value, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, expected]) => {
    const actual = value[key];
    if (!isOperatorObject(expected)) return deepEqual(actual, expected);
    return Object.entries(expected).every(([op, operand]) => {
      const test = OPERATORS[op];
      if (!test) throw new Error(`unsupported filter operator ${op}`);
      return test(actual, operand);
    });
  });
}
