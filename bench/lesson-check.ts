/**
 * What the lesson check adds to a search, with 1,000 active lessons for the user.
 *
 *   npm run bench:lessons                      # embedded database
 *   DATABASE_URL=postgres://... npm run bench:lessons
 *
 * Starts Atrium in-process on a fresh database (a temp DATA_DIR, or a new database on the
 * server), seeds one user with memories and 1,000 lessons, then times search/fast and search
 * over HTTP with lessons on and off, in alternating rounds so drift hits both sides alike.
 * Prints medians and the p50 difference. Embedding time is excluded (hash provider + query cache).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { SYSTEM_ACTOR } from '../src/common/identity/principal';
import { toVectorLiteral } from '../src/database/vector';
import { EmbeddingService } from '../src/embeddings/embedding.service';
import { loadEnv } from '../src/env/env.schema';
import { LessonsRepository } from '../src/lessons/lessons.repository';
import { percentile, seededUnitVector } from './random';

const LESSONS = Number(process.env.BENCH_LESSONS ?? 1000);
const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 100);

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL;
  let dataDir: string | undefined;
  let dbName: string | undefined;
  const overrides: Record<string, string> = {
    LOG_LEVEL: 'error',
    EMBEDDING_PROVIDER: 'hash',
    CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true',
    PORT: '0',
  };
  if (baseUrl) {
    dbName = `atrium_bench_${Date.now()}`;
    const admin = new Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    overrides.DATABASE_URL = url.toString();
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-'));
    overrides.DATA_DIR = dataDir;
    overrides.DATABASE_URL = '';
  }
  const env = loadEnv({ ...process.env, ...overrides });
  const app = await createApp(env);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const ds = app.get(DataSource);
  const user = `bench-${randomUUID().slice(0, 8)}`;

  console.log(`database: ${baseUrl ? 'postgres' : 'embedded PGlite'}; seeding ${MEMORIES} memories and ${LESSONS} lessons for one user`);
  for (let start = 0; start < MEMORIES; start += 500) {
    const rows = Array.from({ length: Math.min(500, MEMORIES - start) }, (_, i) => start + i);
    const values: unknown[] = [];
    const tuples = rows.map((i, j) => {
      values.push(randomUUID(), user, `bench memory ${i} about topic ${i % 37}`, toVectorLiteral(seededUnitVector(i + 1)));
      return `($${j * 4 + 1}, $${j * 4 + 2}, $${j * 4 + 3}, 'bench', CAST($${j * 4 + 4} AS vector))`;
    });
    await ds.query(`INSERT INTO memories (id, user_id, content, source_site, embedding) VALUES ${tuples.join(',')}`, values);
  }
  const lessonsRepo = app.get(LessonsRepository);
  for (let i = 0; i < LESSONS; i++) {
    await lessonsRepo.insert(
      {
        userId: user,
        lessonType: 'user_reported',
        pattern: `lesson pattern ${i}`,
        embedText: '',
        sourceMemoryIds: [],
        sourceQuery: null,
        severity: i % 2 ? 'low' : 'medium',
        metadata: {},
      },
      seededUnitVector(1_000_000 + i),
      app.get(EmbeddingService).identity,
      SYSTEM_ACTOR,
    );
  }
  await ds.query('ANALYZE memories');
  await ds.query('ANALYZE lessons');

  const queries = Array.from({ length: 50 }, (_, i) => `what do I know about topic ${i}`);
  const setLessons = async (on: boolean) => {
    const res = await fetch(`${base}/v1/memories/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lessons_enabled: on }),
    });
    if (!res.ok) throw new Error(`config: ${res.status}`);
  };
  const timeSearch = async (path: string, n: number, expectCheck: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: user, query: queries[i % queries.length], limit: 10 }),
      });
      const body = (await res.json()) as { lesson_check?: unknown; count: number };
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!res.ok || (body.lesson_check !== undefined) !== expectCheck) throw new Error(`unexpected response ${res.status}`);
    }
    return times;
  };

  // Warm up caches (query embeddings, plans, buffers) on both sides.
  for (const on of [true, false]) {
    await setLessons(on);
    await timeSearch('/v1/memories/search/fast', 100, on);
    await timeSearch('/v1/memories/search', 50, on);
  }

  for (const path of ['/v1/memories/search/fast', '/v1/memories/search']) {
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await setLessons(true);
      on.push(...(await timeSearch(path, PER_ROUND, true)));
      await setLessons(false);
      off.push(...(await timeSearch(path, PER_ROUND, false)));
    }
    const p50on = percentile(on, 50);
    const p50off = percentile(off, 50);
    console.log(
      `${path.padEnd(26)} lessons off p50 ${p50off.toFixed(2)} ms p95 ${percentile(off, 95).toFixed(2)} ms | ` +
        `on p50 ${p50on.toFixed(2)} ms p95 ${percentile(on, 95).toFixed(2)} ms | added at p50 ${(p50on - p50off).toFixed(2)} ms (${on.length} requests each)`,
    );
  }

  // The check's own query, without HTTP: median over many runs.
  const direct: number[] = [];
  for (let i = 0; i < 500; i++) {
    const vector = seededUnitVector(5_000_000 + (i % 50));
    const t0 = process.hrtime.bigint();
    await lessonsRepo.matchActive(user, vector, 0.75, 3);
    direct.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(
    `lesson check query alone (${LESSONS} lessons): p50 ${percentile(direct, 50).toFixed(3)} ms, p95 ${percentile(direct, 95).toFixed(3)} ms`,
  );

  await app.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (baseUrl && dbName) {
    const admin = new Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
