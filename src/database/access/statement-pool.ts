import { Logger } from '@nestjs/common';
import { Pool, type PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Connections that run named prepared statements (MemoryAccess.run): the main pool's
 * settings, plus session settings given as startup options.
 *
 * The statement pool (`GENERIC_PLAN_SESSION`, for search, text and record shapes): PostgreSQL
 * chooses between a prepared statement's generic plan and a custom plan per execution, and on
 * the hash-partitioned memories table it always picks the custom plan (the generic plan's cost
 * counts all 16 partitions, since it can only prune at run time), so it keeps planning every
 * request and the statement saves only the parse. Forcing the generic plan
 * fixes that, and run-time pruning still reads one partition through the scope index (EXPLAIN
 * in docs/benchmarks.md, round two). The setting is only safe for statements written for it,
 * so it is not applied to the main pool, where TypeORM's unnamed statements keep their custom
 * plans.
 *
 * The indexed pool (hnswSessionSettings): the HNSW plan's settings for the whole session, so
 * that a large-scope search is one round trip instead of BEGIN, set_config, the statement and
 * COMMIT. Only the HNSW statement runs there.
 */
export const GENERIC_PLAN_SESSION: Readonly<Record<string, string>> = { plan_cache_mode: 'force_generic_plan' };

/** `overrides` (tests): pool settings that differ from the main pool's, e.g. `max`. */
export function openStatementPool(
  dataSource: DataSource,
  overrides: PoolConfig = {},
  session: Readonly<Record<string, string>> = GENERIC_PLAN_SESSION,
): Pool {
  const master = (dataSource.driver as PostgresDriver).master as Pool & { options: PoolConfig };
  const { options: sessionOptions, ...rest } = master.options;
  const settings = Object.entries(session).map(([name, value]) => {
    if (!/^[a-z_.]+$/.test(name) || !/^[A-Za-z0-9_.]+$/.test(value)) throw new Error(`not a session setting: ${name}=${value}`);
    return `-c ${name}=${value}`;
  });
  const pool = new Pool({ ...rest, ...overrides, options: [sessionOptions, ...settings].filter(Boolean).join(' ') });
  const logger = new Logger('StatementPool');
  pool.on('error', (error) => logger.warn(`statement pool connection error: ${error.message}`));
  return pool;
}
