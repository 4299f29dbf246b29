import { createHash } from 'node:crypto';

import type { ObjectLiteral } from 'typeorm';

/**
 * A statement rendered once for a query shape: SQL text with positional parameters ($1, $2,
 * ...) and the names those positions take their values from. The text depends only on the
 * shape (scope kind, agent_scope kind, purpose, which filters are present, plan), never on
 * the values, so it can be a named prepared statement: PostgreSQL parses and plans it once
 * per connection instead of once per request.
 */
export interface StatementShape {
  /** Prepared-statement name, derived from the text (same text, same name, on every connection). */
  readonly name: string;
  readonly text: string;
  /** Parameter names in positional order: `$1` is parameters[0]. */
  readonly parameters: readonly string[];
}

const SENTINEL = '\u0000param:';

/**
 * Renders named-parameter SQL (TypeORM's `:name` form, as builders produce it) to positional
 * form with the PostgreSQL driver's own escaper, recording which name each position has.
 * `names` must hold every parameter the SQL uses (values are not needed: placeholders stand in).
 */
export function renderShape(
  namedSql: string,
  names: Iterable<string>,
  escape: (sql: string, parameters: ObjectLiteral) => [string, unknown[]],
): StatementShape {
  const placeholders: ObjectLiteral = {};
  for (const name of names) placeholders[name] = `${SENTINEL}${name}`;
  const [text, values] = escape(namedSql, placeholders);
  const parameters = values.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(SENTINEL)) throw new Error('renderShape: a parameter was not a placeholder');
    return value.slice(SENTINEL.length);
  });
  return { name: shapeName(text), text, parameters };
}

/** A prepared-statement name derived from the text: the same text has the same name on every connection. */
export function shapeName(text: string): string {
  return `atrium_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/** Positional values for a shape, from named values; a missing one is a programming error. */
export function bindShape(shape: StatementShape, values: ObjectLiteral): unknown[] {
  return shape.parameters.map((name) => {
    const value: unknown = values[name];
    if (value === undefined) throw new Error(`statement ${shape.name}: no value for parameter ${name}`);
    return value;
  });
}

/** Most shapes a ShapeCache holds (reached, it starts over; a process uses a few dozen). */
export const SHAPE_CACHE_LIMIT = 1000;

/**
 * Shapes by key, rendered on first use. The keys name shapes, not values, so a process sees a
 * small fixed number of them; the limit is a backstop should a key ever carry request data.
 */
export class ShapeCache {
  private readonly shapes = new Map<string, StatementShape>();

  get size(): number {
    return this.shapes.size;
  }

  get(key: string, render: () => StatementShape): StatementShape {
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = render();
      if (this.shapes.size >= SHAPE_CACHE_LIMIT) this.shapes.clear();
      this.shapes.set(key, shape);
    }
    return shape;
  }
}
