/**
 * Whether an export runs in constant memory (issue 24): seeds one user with N memories (SQL,
 * generate_series; the database is a throwaway, so its vector index is dropped first and every
 * row gets one of 97 constant vectors: an export reads rows in order and never the index, and an
 * HNSW insert per row would make seeding 1,000,000 rows take the better part of an hour), streams GET /v1/memories/export over HTTP with the vectors, reading and
 * discarding the body, and samples the service process's RSS every 20 ms. Prints, per size,
 * the RSS before, the peak during the export, the lines read and the time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:export
 *   BENCH_SIZES=20000,100000 (default)
 *
 * In-process (the app and the reading client share one process), so the figure is an upper
 * bound for the service alone. PostgreSQL only: the embedded database would count its own
 * pages in this process's RSS.
 */
import { randomUUID } from 'node:crypto';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { EmbeddingService } from '../src/embeddings/embedding.service';
import { loadEnv } from '../src/env/env.schema';

const SIZES = (process.env.BENCH_SIZES ?? '20000,100000').split(',').map(Number);
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL (a PostgreSQL server) is required');
  const dbName = `atrium_bench_export_${Date.now()}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const app = await createApp(
    loadEnv({
      ...process.env,
      LOG_LEVEL: 'error',
      EMBEDDING_PROVIDER: 'hash',
      PORT: '0',
      DATABASE_URL: url.toString(),
      AUTH_MODE: 'off',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      // No tenant graph pass while it runs: it would build an HNSW graph of the seeded user's
      // rows beside the export (the measure is the export's memory, not PostgreSQL's CPU).
      TENANT_GRAPH_FIRST_PASS_S: '86400',
    }),
  );
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const ds = app.get(DataSource);
    const dims = app.get(EmbeddingService).dimensions;
    await ds.query('DROP INDEX IF EXISTS memories_embedding_hnsw_idx');
    console.log(`node ${process.version}; PostgreSQL; ${dims}-dimension vectors included (include_vectors=true)`);
    console.log('rows      lines     seconds  rss before MB  rss peak MB  peak - before MB');
    for (const size of SIZES) {
      const user = `bench-export-${randomUUID().slice(0, 8)}`;
      for (let from = 1; from <= size; from += 50_000) {
        await ds.query(
          `INSERT INTO memories (id, user_id, content, source_site, embedding, created_at)
           SELECT gen_random_uuid(), $1, 'exported memory number ' || i || ' with some ordinary text about the topic ' || (i % 97),
                  'bench', CAST(array_fill((((i % 97) + 1) / 100.0)::float8, ARRAY[$2::int]) AS vector), now() - make_interval(secs => i)
             FROM generate_series($3::int, $4::int) AS i`,
          [user, dims, from, Math.min(size, from + 49_999)],
        );
      }
      // Fresh statistics, as autovacuum would have them by the time anyone exports a million
      // rows: with the numbers of an empty table the planner reads the user's rows through an
      // unordered index and sorts them all for every page (6 s a page at 1M rows).
      await ds.query('ANALYZE memories');
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/memories/export?user_id=${user}&include_vectors=true`);
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      }
      clearInterval(timer);
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `${String(size).padEnd(9)} ${String(lines).padEnd(9)} ${seconds.toFixed(1).padEnd(8)} ${mb(before).padEnd(14)} ${mb(peak).padEnd(12)} ${mb(peak - before)}`,
      );
    }
  } finally {
    await app.close();
    await admin.query(`DROP DATABASE ${dbName}`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
