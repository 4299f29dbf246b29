/**
 * Key re-casing between the wire (snake_case) and the client (camelCase).
 *
 * Only keys the service defines are re-cased. The values of free-form objects are data, not
 * schema, so they are passed through untouched, keys and all:
 * - `metadata`: the caller's own object; it must round-trip exactly, whatever its key style;
 * - `by_type` (lesson stats): its keys are lesson type values (`user_reported`), the same
 *   strings `lessonType` carries, so `byType[lesson.lessonType]` keeps working;
 * - `erased` and `residue` (an erasure's receipt): its keys are table names.
 * Values are never changed: enum values such as `agent_only` stay as they are.
 */

const OPAQUE_WIRE_KEYS: ReadonlySet<string> = new Set(['metadata', 'by_type', 'detail', 'erased', 'residue']);
const OPAQUE_CLIENT_KEYS: ReadonlySet<string> = new Set(['metadata', 'byType', 'detail']);

export const snakeToCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export const camelToSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Wire -> client. */
export function keysToCamel(value: unknown): unknown {
  return convert(value, snakeToCamel, OPAQUE_WIRE_KEYS);
}

/** Client -> wire. `undefined` fields are dropped, as JSON.stringify would. */
export function keysToSnake(value: unknown): unknown {
  return convert(value, camelToSnake, OPAQUE_CLIENT_KEYS);
}

/** Only plain objects are walked: a Date (or any class instance) is a value, left to JSON. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function convert(value: unknown, rename: (key: string) => string, opaque: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, rename, opaque));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    // defineProperty, not assignment: a key named "__proto__" (valid JSON) must stay a plain
    // own property instead of replacing the result's prototype.
    Object.defineProperty(out, rename(key), {
      value: opaque.has(key) ? inner : convert(inner, rename, opaque),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
