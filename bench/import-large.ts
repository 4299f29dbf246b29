/**
 * How long a large import takes (issue 24: the 100,000-line file). Writes an Atrium export of N
 * lines (no vectors, user scope, distinct texts), then sends it to POST /v1/memories/import the
 * way `npm run import` does: parts of BENCH_CHUNK lines, one request each, one after the other.
 * Prints the total, the rate, and the slowest part (which must stay well inside
 * HTTP_REQUEST_TIMEOUT_MS, 60 s by default), then checks the count the database holds.
 *
 *   npm run bench:import                                   # embedded database (PGlite)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:import
 *   BENCH_LINES=100000 (default)  BENCH_CHUNK=500 (default, as npm run import)
 *   BENCH_EMBEDDINGS=hash (default, as the tests) or local
 *   BENCH_VECTORS=1: each line carries the vector the service's own embedder makes of it, and the
 *     header names that embedder, so the import reuses the vectors (an export with include_vectors)
 *
 * The app runs in this process with the request timeout off, so a slow part is measured rather
 * than cut. The figures of a shared machine move a lot; see docs/data.md for the ones recorded.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { EmbeddingService } from '../src/embeddings/embedding.service';
import { loadEnv } from '../src/env/env.schema';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 500);
const EMBEDDINGS = process.env.BENCH_EMBEDDINGS ?? 'hash';
const VECTORS = process.env.BENCH_VECTORS === '1';

/**
 * The file's lines: a header, then one record per line; with `embeddings`, each line carries its
 * vector from that service's embedder and the header names it (as an export with include_vectors).
 */
async function fileLines(count: number, embeddings: EmbeddingService | null): Promise<{ header: string; records: string[] }> {
  const header = JSON.stringify({
    format: 'atrium.export',
    version: 1,
    exported_at: new Date().toISOString(),
    scope: { kind: 'user' },
    ...(embeddings ? { embedding: embeddings.description } : {}),
  });
  const topics = ['the garden', 'the invoices', 'the boiler', 'the car', 'the trip to Porto', 'the team offsite', 'the dentist'];
  const records: string[] = [];
  for (let from = 0; from < count; from += 1_000) {
    const texts = Array.from(
      { length: Math.min(1_000, count - from) },
      (_, k) =>
        `Note ${from + k} about ${topics[(from + k) % topics.length]}: remember item ${(from + k) % 997} before week ${(from + k) % 52}`,
    );
    const vectors = embeddings ? await embeddings.embedDocuments(texts) : null;
    texts.forEach((content, k) => {
      const i = from + k;
      records.push(
        JSON.stringify({
          id: randomUUID(),
          content,
          source_site: 'bench.example',
          created_at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
          metadata: { n: i },
          ...(vectors ? { embedding: vectors[k] } : {}),
        }),
      );
    });
  }
  return { header, records };
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  const kind = serverUrl ? 'PostgreSQL' : 'embedded (PGlite)';
  let dbName: string | undefined;
  let dataDir: string | undefined;
  const databaseEnv: Record<string, string> = {};
  if (serverUrl) {
    dbName = `atrium_bench_import_${Date.now()}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    databaseEnv.DATABASE_URL = url.toString();
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-import-'));
    databaseEnv.DATA_DIR = dataDir;
  }
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const app = await createApp(
    loadEnv({
      ...env,
      LOG_LEVEL: 'error',
      EMBEDDING_PROVIDER: EMBEDDINGS,
      PORT: '0',
      AUTH_MODE: 'off',
      HTTP_REQUEST_TIMEOUT_MS: '0',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      WEBHOOK_POLL_INTERVAL_MS: '0',
      EXPIRY_PURGE_INTERVAL_S: '0',
      ...databaseEnv,
    }),
  );
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const user = `bench-import-${randomUUID().slice(0, 8)}`;
    const { header, records } = await fileLines(LINES, VECTORS ? app.get(EmbeddingService) : null);
    console.log(
      `node ${process.version}; ${kind}; ${EMBEDDINGS} embeddings${VECTORS ? ', vectors in the file' : ''}; ${LINES} lines in parts of ${CHUNK}`,
    );
    const totals = { imported: 0, skipped: 0, blocked: 0, failed: 0 };
    let slowest = 0;
    const started = Date.now();
    for (let from = 0; from < records.length; from += CHUNK) {
      const body = `${header}\n${records.slice(from, from + CHUNK).join('\n')}\n`;
      const partStarted = Date.now();
      const res = await post(`http://127.0.0.1:${port}/v1/memories/import?user_id=${user}`, body);
      if (res.status !== 200) throw new Error(`part at line ${from + 2}: ${res.status} ${res.text}`);
      const result = JSON.parse(res.text) as typeof totals;
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += result[key];
      slowest = Math.max(slowest, (Date.now() - partStarted) / 1000);
      if ((from / CHUNK) % 10 === 9 || from + CHUNK >= records.length) {
        const done = Math.min(from + CHUNK, records.length);
        console.log(`  ${String(done).padStart(7)} lines  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    const [{ n }] = await app.get(DataSource).query('SELECT count(*)::int AS n FROM memories WHERE user_id = $1', [user]);
    console.log(`lines     seconds  lines/s  slowest part s  imported  skipped  blocked  failed  rows in database`);
    console.log(
      `${String(LINES).padEnd(9)} ${seconds.toFixed(1).padEnd(8)} ${(LINES / seconds).toFixed(0).padEnd(8)} ${slowest.toFixed(1).padEnd(15)} ` +
        `${String(totals.imported).padEnd(9)} ${String(totals.skipped).padEnd(8)} ${String(totals.blocked).padEnd(8)} ${String(totals.failed).padEnd(7)} ${n}`,
    );
    if (n !== totals.imported) throw new Error(`the database holds ${n} rows, the import said ${totals.imported}`);
  } finally {
    await app.close();
    if (dbName && serverUrl) {
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE ${dbName}`);
      await admin.end();
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * POST of an NDJSON body, waiting as long as the answer takes: fetch (undici) gives up on an
 * answer whose headers take over 300 s, which a 100,000-line file in one request can.
 */
async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
