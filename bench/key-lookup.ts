/**
 * What authenticating an API key adds to a search (AUTH_MODE=api_key against off).
 *
 *   npm run bench:keys                          # embedded database
 *   DATABASE_URL=postgres://... npm run bench:keys
 *
 * Seeds one user's memories once, then times POST /v1/memories/search/fast over HTTP in
 * alternating rounds: the service started with AUTH_MODE=off (user_id in the body), then
 * restarted on the same database with AUTH_MODE=api_key (a user key, no ids). Prints the
 * medians and their difference, and the median of the key lookup alone (ApiKeyAuthenticator:
 * one unique-index probe by prefix, SHA-256, constant-time compare), measured in-process.
 * Embedding time is excluded (hash provider + query cache).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { ApiKeyAuthenticator } from '../src/auth/api-key-authenticator';
import { createApp } from '../src/bootstrap';
import { toVectorLiteral } from '../src/database/vector';
import { loadEnv } from '../src/env/env.schema';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 300);
const DIMS = 384;
const ADMIN_TOKEN = `bench-admin-${randomUUID()}`;

function randomUnit(seed: number): number[] {
  let x = seed >>> 0 || 1;
  const v = Array.from({ length: DIMS }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 2 ** 32) * 2 - 1;
  });
  const n = Math.hypot(...v);
  return v.map((c) => c / n);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  let dataDir: string | undefined;
  let dbName: string | undefined;
  const overrides: Record<string, string> = { LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash', PORT: '0', ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN };
  if (serverUrl) {
    dbName = `atrium_bench_keys_${Date.now()}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    overrides.DATABASE_URL = url.toString();
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-keys-'));
    overrides.DATA_DIR = dataDir;
    overrides.DATABASE_URL = '';
  }
  const start = async (mode: 'off' | 'api_key'): Promise<{ app: NestExpressApplication; base: string }> => {
    const app = await createApp(loadEnv({ ...process.env, ...overrides, AUTH_MODE: mode }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return { app, base: `http://127.0.0.1:${port}` };
  };

  const user = `bench-${randomUUID().slice(0, 8)}`;
  let key = '';
  {
    const { app, base } = await start('off');
    const ds = app.get(DataSource);
    console.log(`database: ${serverUrl ? 'postgres' : 'embedded PGlite'}; seeding ${MEMORIES} memories for one user`);
    for (let from = 0; from < MEMORIES; from += 500) {
      const rows = Array.from({ length: Math.min(500, MEMORIES - from) }, (_, i) => from + i);
      const values: unknown[] = [];
      const tuples = rows.map((i, j) => {
        values.push(randomUUID(), user, `bench memory ${i} about topic ${i % 37}`, toVectorLiteral(randomUnit(i + 1)));
        return `($${j * 4 + 1}, $${j * 4 + 2}, $${j * 4 + 3}, 'bench', CAST($${j * 4 + 4} AS vector))`;
      });
      await ds.query(`INSERT INTO memories (id, user_id, content, source_site, embedding) VALUES ${tuples.join(',')}`, values);
    }
    // some other keys, so the lookup is a real index probe among many
    for (let i = 0; i < 200; i++) await mint(base, { role: 'user', user_id: `other-${i}` });
    key = await mint(base, { role: 'user', user_id: user });
    await ds.query('ANALYZE');
    await app.close();
  }

  const queries = Array.from({ length: 50 }, (_, i) => `what do I know about topic ${i}`);
  const timeSearch = async (base: string, mode: 'off' | 'api_key', n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(mode === 'api_key' ? { authorization: `Bearer ${key}` } : {}) };
      const body = { ...(mode === 'off' ? { user_id: user } : {}), query: queries[i % queries.length], limit: 10 };
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}/v1/memories/search/fast`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { count: number };
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!res.ok || json.count !== 10) throw new Error(`unexpected response ${res.status}`);
    }
    return times;
  };

  const samples: Record<'off' | 'api_key', number[]> = { off: [], api_key: [] };
  let lookups: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'api_key'] as const) : (['api_key', 'off'] as const)) {
      const { app, base } = await start(mode);
      await timeSearch(base, mode, 50); // warm-up: plans, buffers, query-embedding cache
      samples[mode].push(...(await timeSearch(base, mode, PER_ROUND)));
      if (mode === 'api_key' && round === ROUNDS - 1) lookups = await timeLookups(app.get(ApiKeyAuthenticator), key);
      await app.close();
    }
  }
  const [off, on] = [percentile(samples.off, 50), percentile(samples.api_key, 50)];
  console.log(
    `search/fast  AUTH_MODE=off p50 ${off.toFixed(3)} ms p95 ${percentile(samples.off, 95).toFixed(3)} ms | ` +
      `api_key p50 ${on.toFixed(3)} ms p95 ${percentile(samples.api_key, 95).toFixed(3)} ms | added at p50 ${(on - off).toFixed(3)} ms ` +
      `(${samples.off.length} requests each, ${ROUNDS} alternating rounds)`,
  );
  console.log(`key lookup alone (ApiKeyAuthenticator.authenticate, 202 keys): p50 ${percentile(lookups, 50).toFixed(3)} ms, p95 ${percentile(lookups, 95).toFixed(3)} ms`);

  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (serverUrl && dbName) {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

async function mint(base: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}/v1/admin/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`minting a key: ${res.status}`);
  return ((await res.json()) as { key: string }).key;
}

async function timeLookups(authenticator: ApiKeyAuthenticator, key: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t0 = process.hrtime.bigint();
    const found = await authenticator.authenticate(key);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!found) throw new Error('the key did not authenticate');
  }
  return times;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
