/**
 * The benchmark's own database: a fresh `atrium_bench_*` database on the PostgreSQL server,
 * or a fresh embedded (PGlite) data directory. Migrated with the app's own migrations.
 * The harness opens it directly for seeding, ground truth and EXPLAIN, and closes it before
 * the service starts when the database is embedded (one process per data directory).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, Pool } from 'pg';
import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';

import { buildDataSourceOptions } from '../src/database/data-source.options';
import type { DatabaseTarget } from '../src/database/database-target';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/database/embedded-postgres';
import { EpisodeEntity } from '../src/database/entities/episode.entity';
import { MemoryEntity } from '../src/database/entities/memory.entity';
import { VisibilityGrantEntity } from '../src/database/entities/visibility-grant.entity';
import { prepareDatabase } from '../src/database/prepare-database';
import { configuredIdentity } from '../src/embeddings/embedding-identity';
import { loadEnv, type AppEnv } from '../src/env/env.schema';

export type DatabaseKind = 'postgres' | 'embedded';

export interface BenchDatabase {
  kind: DatabaseKind;
  /** What the service gets: DATABASE_URL (postgres) or DATA_DIR (embedded). */
  serviceEnv: Record<string, string>;
  /** Open the harness's own connections (pool for SQL, TypeORM data source for the repository). */
  open(recorder?: TypeOrmLogger): Promise<{ pool: Pool; dataSource: DataSource }>;
  /** Close what open() opened (and the embedded server). */
  closeConnections(): Promise<void>;
  /** Remove the database for good. */
  drop(): Promise<void>;
}

export function benchEnv(dims: number, extra: Record<string, string> = {}): AppEnv {
  return loadEnv({ LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash', EMBEDDING_DIMENSIONS: String(dims), ...extra });
}

export async function createBenchDatabase(
  kind: DatabaseKind,
  baseUrl: string | undefined,
  dims: number,
  reuse = '',
): Promise<BenchDatabase> {
  let pool: Pool | undefined;
  let dataSource: DataSource | undefined;
  let embedded: EmbeddedPostgres | undefined;
  const closeConnections = async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await pool?.end();
    await embedded?.close();
    pool = undefined;
    dataSource = undefined;
    embedded = undefined;
  };

  if (kind === 'postgres') {
    if (!baseUrl) throw new Error('--db postgres needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
    const name = reuse || `atrium_bench_${Date.now().toString(36)}_${process.pid}`;
    if (!reuse) {
      const admin = new Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
    }
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const target: DatabaseTarget = { kind: 'postgres', url: url.toString(), directUrl: url.toString(), pooled: false, description: name };
    return {
      kind,
      serviceEnv: { DATABASE_URL: url.toString() },
      async open(recorder) {
        const env = benchEnv(dims);
        dataSource = await openDataSource(target, env, recorder);
        pool = new Pool({ connectionString: url.toString(), max: 4 });
        return { pool, dataSource };
      },
      closeConnections,
      async drop() {
        await closeConnections();
        const c = new Client({ connectionString: baseUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }

  // reuse: a data directory kept by an earlier run (bench/ab.ts passes its own copy of one)
  const dataDir = reuse || (await mkdtemp(join(tmpdir(), 'atrium-bench-')));
  return {
    kind,
    serviceEnv: { DATABASE_URL: '', DATA_DIR: dataDir },
    async open(recorder) {
      embedded = await startEmbeddedPostgres({ dataDir, maxConnections: 10 });
      const target: DatabaseTarget = { kind: 'embedded', embedded, description: `embedded PGlite in ${dataDir}` };
      dataSource = await openDataSource(target, benchEnv(dims, { DATA_DIR: dataDir }), recorder);
      pool = new Pool({ host: embedded.host, port: embedded.port, user: embedded.username, database: embedded.database, max: 1 });
      return { pool, dataSource };
    },
    closeConnections,
    async drop() {
      await closeConnections();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function openDataSource(target: DatabaseTarget, env: AppEnv, recorder?: TypeOrmLogger): Promise<DataSource> {
  const options = buildDataSourceOptions(target, env);
  const dataSource = new DataSource({
    ...options,
    entities: [MemoryEntity, EpisodeEntity, VisibilityGrantEntity],
    ...(recorder ? { logging: ['query'] as const, logger: recorder } : {}),
  });
  await dataSource.initialize();
  await prepareDatabase(dataSource, {
    where: target.description,
    embeddingDimensions: env.EMBEDDING_DIMENSIONS,
    embeddingIdentity: configuredIdentity(env),
  });
  return dataSource;
}

/**
 * Before a write run on PostgreSQL (an embedded database belongs to the server that has it
 * open): removeLoadRows through a connection of its own, so every run writes into scopes of the
 * sizes its target names. Without it each 10 s ingest/quick run added ~350 rows to each of
 * user/small's eight scopes (20-272 rows) at 1M, the de-duplication scan of later runs read
 * several times what the first did, and six A/B rounds a side fell from ~430 to ~200 req/s on
 * both sides alike (docs/bench-notes/write-path.md).
 */
export async function resetWrites(db: BenchDatabase): Promise<void> {
  if (db.kind !== 'postgres') return;
  const { dataSource } = await db.open();
  try {
    await removeLoadRows(dataSource);
  } finally {
    await db.closeConnections();
  }
}

/**
 * Removes what earlier load runs wrote (ingest/quick rows and episodes) from a kept corpus and
 * vacuums: without this, the callers' scopes grow from run to run. The VACUUM runs without
 * the service's statement timeout (at 1M memories it takes longer).
 */
export async function removeLoadRows(ds: DataSource): Promise<void> {
  const runner = ds.createQueryRunner();
  try {
    // Without the statement timeout too: each deleted row takes its BM25 statistics and
    // postings out in its trigger (~2 ms), and a few 1M write runs leave over 10,000 rows.
    await runner.query('SET statement_timeout = 0');
    await runner.query("DELETE FROM memories WHERE source_site = 'bench.load'");
    await runner.query("DELETE FROM episodes WHERE source_site = 'bench.load'");
    await runner.query('VACUUM ANALYZE memories');
    await runner.query('VACUUM ANALYZE memory_postings');
    // What else the load's writes and this cleanup leave dead: the statistics' change queue and
    // folded rows, the episodes and versions. This machine's PostgreSQL runs with autovacuum
    // off, so nothing else would, and each run would start where the last left its dead rows.
    for (const table of ['memory_term_changes', 'memory_term_stats', 'episodes', 'memory_versions']) await runner.query(`VACUUM ${table}`);
    await runner.query('RESET statement_timeout');
  } finally {
    await runner.release();
  }
}
