import type { DataSource } from 'typeorm';

import { migrationContext } from '../../migrations/migration-context';
import { countForeignVectors } from './maintenance/foreign-vectors';
import { DatabaseStartupError, ensureEmbeddingDimensions, ensurePgvector } from './pgvector';

/** Arbitrary constant: serialises migrations across Atrium instances starting together. */
const MIGRATION_LOCK_KEY = 7_361_502_911;

export interface PrepareOptions {
  /** Where the database is, for error messages (no credentials). */
  where: string;
  embeddingDimensions: number;
  /** The configured embedder (embeddings/embedding-identity.ts); stored vectors must all be its. */
  embeddingIdentity: string;
  /** Check that every stored vector is the configured embedder's (default true; `npm run reembed` turns it off). */
  checkIdentity?: boolean;
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
    migrationContext.embeddingIdentity = options.embeddingIdentity;
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
  if (options.checkIdentity !== false) await ensureEmbeddingIdentity(dataSource, options.embeddingIdentity);
}

/**
 * Vectors of different embedders are not comparable, even at the same dimension: refuse to
 * serve over rows another embedder made, and say how to fix it (one line).
 */
export async function ensureEmbeddingIdentity(dataSource: DataSource, identity: string): Promise<void> {
  const foreign = await countForeignVectors(dataSource, identity, 1);
  if (foreign.count > 0) {
    throw new DatabaseStartupError(
      `stored vectors were made by ${foreign.example} but the configured embedder is ${identity}: ` +
        'run `npm run reembed` with this configuration to re-embed them, or set EMBEDDING_PROVIDER/EMBEDDING_MODEL back to the embedder that made them.',
    );
  }
}
