import type { DataSource } from 'typeorm';

import { migrationContext } from '../../migrations/migration-context';
import { ensureEmbeddingDimensions, ensurePgvector } from './pgvector';

/** Arbitrary constant: serialises migrations across Atrium instances starting together. */
const MIGRATION_LOCK_KEY = 7_361_502_911;

export interface PrepareOptions {
  /** Where the database is, for error messages (no credentials). */
  where: string;
  embeddingDimensions: number;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /**
   * Serialise migrations across instances with an advisory lock (default: when the pool has
   * room for two connections). Never with the embedded database: one process owns its data
   * directory, and its single pooled connection would be held by the lock's session while the
   * migrations wait for it.
   */
  lock?: boolean;
}

/**
 * Everything between "connected" and "ready to serve": pgvector present and recent,
 * pending migrations applied (under an advisory lock), vector dimensions matching.
 */
export async function prepareDatabase(dataSource: DataSource, options: PrepareOptions): Promise<void> {
  await ensurePgvector((sql, params) => dataSource.query(sql, params), options.where);
  if (options.migrate !== false) {
    migrationContext.embeddingDimensions = options.embeddingDimensions;
    const poolMax = Number((dataSource.options as { extra?: { max?: number } }).extra?.max ?? 10);
    if (options.lock === false || poolMax < 2) {
      await dataSource.runMigrations({ transaction: 'each' });
    } else {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await dataSource.runMigrations({ transaction: 'each' });
        } finally {
          await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        await runner.release();
      }
    }
  }
  await ensureEmbeddingDimensions(dataSource, options.embeddingDimensions);
}
