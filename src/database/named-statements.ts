import type { ConfigService } from '@nestjs/config';
import type { DataSource } from 'typeorm';

import type { AppEnv } from '../env/env.schema';
import type { DatabaseTarget } from './database-target';

/** The pg pool under TypeORM's driver, as far as a named statement needs it. */
export interface NamedStatementPool {
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/**
 * The pool on which a repository may run a hot, fixed statement as a named prepared statement
 * (parsed and planned once per connection, and without TypeORM's query runner around it), or
 * null where it may not: the same rule as MemoryAccess's statement pool, a direct connection to
 * a real server only. Not behind a pooler (DATABASE_DIRECT_URL differs: a transaction-mode
 * PgBouncer < 1.21 does not keep named statements), not with DATABASE_PREPARED_STATEMENTS=false,
 * and not on the embedded database (its connections share one backend, where a statement name
 * prepared by one pg client would collide with the same name from the next one).
 */
export function namedStatementPool(
  dataSource: DataSource,
  config: ConfigService<AppEnv, true>,
  target: DatabaseTarget,
): NamedStatementPool | null {
  const master = (dataSource.driver as unknown as { master?: NamedStatementPool }).master;
  const named = target.kind === 'postgres' && !target.pooled && config.get('DATABASE_PREPARED_STATEMENTS', { infer: true });
  return named && master && typeof master.query === 'function' ? master : null;
}

/** Rows of `text` with `values`: a named statement on `pool`, else an ordinary query through `dataSource`. */
export async function queryRows<R>(
  pool: NamedStatementPool | null,
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<R[]> {
  if (pool) return (await pool.query<R>({ name, text, values })).rows;
  return dataSource.query(text, values);
}
