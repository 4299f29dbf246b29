import { Logger } from '@nestjs/common';
import { Pool, type PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The connections that run the named prepared statements (MemoryAccess.run: search, text and
 * record shapes): the main pool's settings, plus `plan_cache_mode = force_generic_plan` for
 * the session.
 *
 * Why a pool of its own: PostgreSQL chooses between a prepared statement's generic plan and
 * a custom plan per execution, and on the hash-partitioned memories table it always picks
 * the custom plan (the generic plan's cost counts all 16 partitions, since it can only prune
 * at run time), so it keeps planning every request (about 0.5 ms) and the statement saves
 * only the parse. Forcing the generic plan fixes that, and run-time pruning still reads one
 * partition through the scope index (EXPLAIN in docs/benchmarks.md, round two). The setting
 * is only safe for statements written for it, so it is not applied to the main pool, where
 * TypeORM's unnamed statements keep their custom plans.
 */
/** `overrides` (tests): pool settings that differ from the main pool's, e.g. `max`. */
export function openStatementPool(dataSource: DataSource, overrides: PoolConfig = {}): Pool {
  const master = (dataSource.driver as PostgresDriver).master as Pool & { options: PoolConfig };
  const { options: sessionOptions, ...rest } = master.options;
  const pool = new Pool({ ...rest, ...overrides, options: [sessionOptions, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ') });
  const logger = new Logger('StatementPool');
  pool.on('error', (error) => logger.warn(`statement pool connection error: ${error.message}`));
  return pool;
}
