import { Brackets, type ObjectLiteral, type SelectQueryBuilder, type UpdateQueryBuilder } from 'typeorm';

/**
 * What MemoryAccess hands out instead of a TypeORM builder: a statement that already holds
 * its tenant predicate (the visibility predicate of visibility.ts, or a lesson's user), with
 * only the operations that cannot widen it.
 *
 * - Conditions are always AND-ed, each in its own parentheses. TypeORM does not bracket a
 *   string condition, so on a raw builder `andWhere('a OR TRUE')` after the predicate reads
 *   `WHERE (predicate) AND a OR TRUE`, which is every row (test/database/scoped-query.int.spec.ts
 *   shows it); here it reads `WHERE (predicate) AND (a OR TRUE)`.
 * - There is no `where` (it would replace the predicate), `orWhere` (it would widen it),
 *   `setParameter(s)`, `connection`, manager or builder: the wrapped builder sits in an ES
 *   private field, out of reach of any code outside this class.
 * - Parameter names that start with `vis_` belong to the door: a caller that passes one is
 *   refused, and the door binds its own values last, just before the statement runs, so no
 *   value a caller set can stand in for the scope's.
 *
 * Construction is the door's alone (scopedSelect/scopedUpdate, imported only inside
 * src/database/access; eslint.one-door.mjs keeps it so).
 */

/** Proof of construction by the door (never exported). */
const DOOR = Symbol('MemoryAccess');

/** Parameter names MemoryAccess owns (visibility.ts binds them). */
export const DOOR_PARAMETER_PREFIX = 'vis_';

/** The tables a scoped select may join, and how: the door writes the join condition. */
export type JoinConditions = Readonly<Record<string, (alias: string, own: string) => string>>;

function checkParameters(parameters: ObjectLiteral | undefined): ObjectLiteral {
  for (const name of Object.keys(parameters ?? {})) {
    if (name.startsWith(DOOR_PARAMETER_PREFIX)) throw new Error(`parameter ${name}: names starting with vis_ belong to MemoryAccess`);
  }
  return parameters ?? {};
}

export class ScopedSelect<T extends ObjectLiteral, J extends JoinConditions = Record<never, never>> {
  readonly #qb: SelectQueryBuilder<T>;
  readonly #bound: Readonly<ObjectLiteral>;
  readonly #alias: string;
  readonly #joins: J;

  /** Private to the door: use scopedSelect (the door's factory). */
  constructor(token: symbol, qb: SelectQueryBuilder<T>, bound: Readonly<ObjectLiteral>, alias: string, joins: J) {
    if (token !== DOOR) throw new Error('ScopedSelect is built by MemoryAccess only');
    this.#qb = qb;
    this.#bound = bound;
    this.#alias = alias;
    this.#joins = joins;
  }

  /** Replaces the selection (an expression over the alias, with its output name). */
  select(selection: string, alias?: string): this {
    this.#qb.select(selection, alias);
    return this;
  }

  addSelect(selection: string, alias?: string): this {
    this.#qb.addSelect(selection, alias);
    return this;
  }

  /** One more condition, in its own parentheses, AND-ed to the predicate and to the others. */
  andWhere(condition: string, parameters?: ObjectLiteral): this {
    const values = checkParameters(parameters);
    this.#qb.andWhere(new Brackets((where) => where.where(condition, values)));
    return this;
  }

  orderBy(sort: string, order: 'ASC' | 'DESC' = 'ASC'): this {
    this.#qb.orderBy(sort, order);
    return this;
  }

  addOrderBy(sort: string, order: 'ASC' | 'DESC' = 'ASC'): this {
    this.#qb.addOrderBy(sort, order);
    return this;
  }

  limit(limit: number): this {
    this.#qb.limit(limit);
    return this;
  }

  offset(offset: number): this {
    this.#qb.offset(offset);
    return this;
  }

  /** A LEFT JOIN of one of the tables the door allows for this statement, on the door's condition. */
  leftJoin(table: keyof J & string, alias: string): this {
    const condition = this.#joins[table];
    if (!condition) throw new Error(`ScopedSelect: no join with ${table}`);
    this.#qb.leftJoin(table, alias, condition(alias, this.#alias));
    return this;
  }

  async getRawMany<R = Record<string, unknown>>(): Promise<R[]> {
    return this.#bind().getRawMany<R>();
  }

  async getRawOne<R = Record<string, unknown>>(): Promise<R | undefined> {
    return this.#bind().getRawOne<R>();
  }

  async getMany(): Promise<T[]> {
    return this.#bind().getMany();
  }

  async getCount(): Promise<number> {
    return this.#bind().getCount();
  }

  /** The door's values, last: nothing set before can stand in for them. */
  #bind(): SelectQueryBuilder<T> {
    return this.#qb.setParameters(this.#bound);
  }
}

export class ScopedUpdate<T extends ObjectLiteral> {
  readonly #qb: UpdateQueryBuilder<T>;
  readonly #bound: Readonly<ObjectLiteral>;

  /** Private to the door: use scopedUpdate (the door's factory). */
  constructor(token: symbol, qb: UpdateQueryBuilder<T>, bound: Readonly<ObjectLiteral>) {
    if (token !== DOOR) throw new Error('ScopedUpdate is built by MemoryAccess only');
    this.#qb = qb;
    this.#bound = bound;
  }

  /** One more condition, in its own parentheses, AND-ed to the predicate and to the others. */
  andWhere(condition: string, parameters?: ObjectLiteral): this {
    const values = checkParameters(parameters);
    this.#qb.andWhere(new Brackets((where) => where.where(condition, values)));
    return this;
  }

  /** Runs the UPDATE; the number of rows it changed. */
  async execute(): Promise<number> {
    return (await this.#qb.setParameters(this.#bound).execute()).affected ?? 0;
  }
}

/**
 * A scoped select over `qb`, which already holds its tenant predicate (alias `alias`);
 * `bound` are the predicate's values, set again just before each run.
 */
export function scopedSelect<T extends ObjectLiteral, J extends JoinConditions>(
  qb: SelectQueryBuilder<T>,
  bound: Readonly<ObjectLiteral>,
  alias: string,
  joins: J,
): ScopedSelect<T, J> {
  return new ScopedSelect(DOOR, qb, bound, alias, joins);
}

/** A scoped UPDATE over `qb` (predicate applied, `extra` the SET clause's own parameters). */
export function scopedUpdate<T extends ObjectLiteral>(
  qb: UpdateQueryBuilder<T>,
  bound: Readonly<ObjectLiteral>,
  extra?: ObjectLiteral,
): ScopedUpdate<T> {
  qb.setParameters(checkParameters(extra));
  return new ScopedUpdate(DOOR, qb, bound);
}
