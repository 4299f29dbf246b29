/**
 * Bulk seeding: multi-row INSERTs of unnest()-ed parameter arrays, a few in flight at once,
 * with the secondary indexes of `memories` and `memory_visibility_grants` dropped during the
 * load and rebuilt afterwards from their own definitions (whatever the migrations made),
 * HNSW last, with maintenance_work_mem set for that session. The rows go in with triggers off
 * and the BM25 statistics they keep (migration 1763700400000) are counted once after the load.
 * Then VACUUM ANALYZE, so the planner and index-only scans see a settled table.
 */
import type { Pool, PoolClient } from 'pg';

import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { memoryBatches, type CorpusPlan, type MemoryBatch } from './corpus';

export interface SeedOptions {
  dims: number;
  batchSize: number;
  /** Concurrent INSERT statements (1 on the embedded database: one backend). */
  concurrency: number;
  /** For the index builds, e.g. '2GB'. */
  maintenanceWorkMem: string;
  /** Parallel workers for the index builds (0 on the embedded database). */
  parallelWorkers: number;
  log: (line: string) => void;
}

export interface IndexBuild {
  name: string;
  seconds: number;
}

export interface SeedResult {
  memories: number;
  grants: number;
  /** Wall time of the INSERTs alone (generation and embedding overlap with them). */
  loadSeconds: number;
  indexes: IndexBuild[];
  vacuumSeconds: number;
  totalSeconds: number;
  tableBytes: number;
  hnswBytes: number;
}

const INSERT_MEMORIES = `
  INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, importance, source_site, trust_score, embedding, created_at, updated_at)
  SELECT id, u, w, a, v, c, i, s, t, CAST(e AS vector), ca, ca
  FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::real[], $8::text[], $9::real[], $10::text[], $11::timestamptz[])
    AS r(id, u, w, a, v, c, i, s, t, e, ca)`;

const INSERT_GRANTS = `
  INSERT INTO memory_visibility_grants (memory_id, user_id, workspace_id, grantee_agent_id, granted_by_agent_id)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[])`;

const scratch = Buffer.allocUnsafe(32 * 2048);

/**
 * pgvector text form, components as integers of millionths (`123456e-6`), written digit by
 * digit into a scratch buffer: 6 decimals is below float4 resolution for unit vectors, and
 * this is ~15x faster than Number#toPrecision (formatting was the seeding bottleneck).
 */
export function vectorText(v: readonly number[]): string {
  let p = 0;
  scratch[p++] = 0x5b; // [
  for (let i = 0; i < v.length; i++) {
    if (i) scratch[p++] = 0x2c; // ,
    let n = Math.round(v[i] * 1e6);
    if (n === 0) {
      scratch[p++] = 0x30;
      continue;
    }
    if (n < 0) {
      scratch[p++] = 0x2d; // -
      n = -n;
    }
    const start = p;
    while (n > 0) {
      scratch[p++] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    for (let a = start, b = p - 1; a < b; a++, b--) {
      const t = scratch[a];
      scratch[a] = scratch[b];
      scratch[b] = t;
    }
    scratch[p++] = 0x65; // e
    scratch[p++] = 0x2d; // -
    scratch[p++] = 0x36; // 6
  }
  scratch[p++] = 0x5d; // ]
  return scratch.toString('latin1', 0, p);
}

interface IndexDef {
  name: string;
  table: string;
  definition: string;
  method: string;
}

async function secondaryIndexes(client: PoolClient): Promise<IndexDef[]> {
  const { rows } = await client.query<IndexDef>(
    `SELECT i.relname AS name, t.relname AS "table", pg_get_indexdef(i.oid) AS definition, am.amname AS method
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_am am ON am.oid = i.relam
      WHERE t.relname IN ('memories', 'memory_visibility_grants')
        AND t.relnamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)
      ORDER BY i.relname`,
  );
  // btree first (cheap), then GIN, HNSW last: each build gets the machine to itself.
  const rank = (m: string) => (m === 'btree' ? 0 : m === 'hnsw' ? 2 : 1);
  return rows.sort((a, b) => rank(a.method) - rank(b.method) || a.name.localeCompare(b.name));
}

export async function seedCorpus(pool: Pool, plan: CorpusPlan, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const embedder = new HashEmbeddingProvider(options.dims);
  const admin = await pool.connect();
  let indexes: IndexDef[];
  try {
    indexes = await secondaryIndexes(admin);
    for (const index of indexes) await admin.query(`DROP INDEX ${index.name}`);
  } finally {
    admin.release();
  }

  const loadStarted = performance.now();
  let memories = 0;
  let grants = 0;
  const inFlight = new Set<Promise<void>>();
  const insert = async (batch: MemoryBatch, vectors: string[]): Promise<void> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Triggers off for the load (the BM25 statistics are counted once afterwards); this
      // also skips the grants' foreign-key checks, which the generated corpus satisfies.
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query(INSERT_MEMORIES, [
        batch.id,
        batch.userId,
        batch.workspaceId,
        batch.agentId,
        batch.visibility,
        batch.content,
        batch.importance,
        batch.sourceSite,
        batch.trustScore,
        vectors,
        batch.createdAt,
      ]);
      if (batch.grants.length > 0) {
        const g = batch.grants;
        await client.query(INSERT_GRANTS, [
          g.map((x) => x.memoryId),
          g.map((x) => x.userId),
          g.map((x) => x.workspaceId),
          g.map((x) => x.grantee),
          g.map((x) => x.grantor),
        ]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  let lastLog = performance.now();
  for (const batch of memoryBatches(plan, options.batchSize)) {
    const vectors = batch.content.map((text) => vectorText(embedder.embedOne(text)));
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    const task: Promise<void> = insert(batch, vectors).finally(() => inFlight.delete(task));
    inFlight.add(task);
    memories += batch.id.length;
    grants += batch.grants.length;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      const rate = memories / ((lastLog - loadStarted) / 1000);
      options.log(`  seeded ${memories.toLocaleString('en-US')} / ${plan.total.toLocaleString('en-US')} (${Math.round(rate)} rows/s)`);
    }
  }
  await Promise.all(inFlight);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  options.log(
    `  loaded ${memories} memories and ${grants} grants in ${loadSeconds.toFixed(1)} s (${Math.round(memories / loadSeconds)} rows/s)`,
  );

  const builds: IndexBuild[] = [];
  const client = await pool.connect();
  try {
    const s0 = performance.now();
    await client.query('SELECT atrium_rebuild_term_stats()');
    options.log(`  BM25 statistics and postings counted in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    await client.query(`SET maintenance_work_mem = '${options.maintenanceWorkMem}'`);
    if (options.parallelWorkers > 0) await client.query(`SET max_parallel_maintenance_workers = ${options.parallelWorkers}`);
    for (const index of indexes) {
      const t0 = performance.now();
      // on a partitioned table pg_get_indexdef says "ON ONLY", which would not build the partitions' indexes
      await client.query(index.definition.replace(' ON ONLY ', ' ON '));
      const seconds = (performance.now() - t0) / 1000;
      builds.push({ name: index.name, seconds });
      options.log(`  index ${index.name} (${index.method}) built in ${seconds.toFixed(1)} s`);
    }
    const v0 = performance.now();
    await client.query('VACUUM ANALYZE memories');
    await client.query('VACUUM ANALYZE memory_visibility_grants');
    await client.query('VACUUM ANALYZE memory_term_stats');
    // The postings were rebuilt above with the triggers off: without this the planner has no
    // statistics for them and the index-only scans no visibility map. A 1M run seeded without
    // it measured /search on the largest scopes at 88-111 ms of database CPU (2 s load runs
    // right after seeding), against 24 ms in A/B runs on the same corpus after a VACUUM
    // (ANALYZE) of the table; which of the two (or the cold cache) cost it was not isolated.
    await client.query('VACUUM ANALYZE memory_postings');
    const vacuumSeconds = (performance.now() - v0) / 1000;
    // a partitioned table has no storage of its own: sum over the table and its partitions
    const sizes = await client.query<{ table_bytes: string; hnsw_bytes: string | null }>(
      `WITH parts AS (SELECT 'memories'::regclass AS rel UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = 'memories'::regclass)
       SELECT (SELECT sum(pg_total_relation_size(rel)) FROM parts)::text AS table_bytes,
              (SELECT sum(pg_relation_size(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                 JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid IN (SELECT rel FROM parts) AND am.amname = 'hnsw')::text AS hnsw_bytes`,
    );
    return {
      memories,
      grants,
      loadSeconds,
      indexes: builds,
      vacuumSeconds,
      totalSeconds: (performance.now() - started) / 1000,
      tableBytes: Number(sizes.rows[0].table_bytes),
      hnswBytes: Number(sizes.rows[0].hnsw_bytes ?? 0),
    };
  } finally {
    await client.query('RESET maintenance_work_mem').catch(() => undefined);
    client.release();
  }
}
