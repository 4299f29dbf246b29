/**
 * What authenticating an API key adds to a search (AUTH_MODE=api_key against off).
 *
 *   npm run bench:keys                          # embedded database
 *   DATABASE_URL=postgres://... npm run bench:keys
 *
 * Seeds one user's memories once, then times POST /v1/memories/search/fast over HTTP in
 * alternating rounds: the service started with AUTH_MODE=off (user_id in the body), then
 * restarted on the same database with AUTH_MODE=api_key (a user key, no ids). Prints the
 * medians and their difference (over HTTP it is within the noise of a shared machine), then
 * the two parts of the key's cost measured in-process, 2,000 calls each:
 * - the guard's work: ApiKeyAuthenticator.authenticateForStatement (the key from memory:
 *   SHA-256 and a constant-time compare), beside authenticate (the row read by its prefix,
 *   what every other route and a key's first use pay);
 * - the statement's work: the search/fast statement (VectorSearch.gatedNearest) with and
 *   without the live_key re-check of revocation and expiry.
 * Embedding time is excluded (hash provider + query cache).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { ApiKeyAuthenticator } from '../src/auth/api-key-authenticator';
import { toVectorLiteral } from '../src/database/vector';
import { loadEnv } from '../src/env/env.schema';
import { VectorSearch } from '../src/retrieval/vector-search';
import { percentile, seededUnitVector } from './random';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 300);
const ADMIN_TOKEN = `bench-admin-${randomUUID()}`;

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
        values.push(randomUUID(), user, `bench memory ${i} about topic ${i % 37}`, toVectorLiteral(seededUnitVector(i + 1)));
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
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(mode === 'api_key' ? { authorization: `Bearer ${key}` } : {}),
      };
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
  let parts: KeyCostParts | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'api_key'] as const) : (['api_key', 'off'] as const)) {
      const { app, base } = await start(mode);
      await timeSearch(base, mode, 50); // warm-up: plans, buffers, query-embedding cache
      samples[mode].push(...(await timeSearch(base, mode, PER_ROUND)));
      if (mode === 'api_key' && round === ROUNDS - 1) parts = await timeKeyParts(app, key, user);
      await app.close();
    }
  }
  const [off, on] = [percentile(samples.off, 50), percentile(samples.api_key, 50)];
  console.log(
    `search/fast  AUTH_MODE=off p50 ${off.toFixed(3)} ms p95 ${percentile(samples.off, 95).toFixed(3)} ms | ` +
      `api_key p50 ${on.toFixed(3)} ms p95 ${percentile(samples.api_key, 95).toFixed(3)} ms | added at p50 ${(on - off).toFixed(3)} ms ` +
      `(${samples.off.length} requests each, ${ROUNDS} alternating rounds)`,
  );
  const p = parts as KeyCostParts;
  const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(4)} ms, p95 ${percentile(values, 95).toFixed(4)} ms`;
  console.log(`guard, key from memory (authenticateForStatement, search/fast): ${fmt(p.cached)}`);
  console.log(`guard, key row read (authenticate, other routes and a first use; 202 keys): ${fmt(p.fresh)}`);
  console.log(`search/fast statement without the key re-check: ${fmt(p.plain)}`);
  console.log(`search/fast statement with the key re-check:    ${fmt(p.checked)}`);
  console.log(`statement difference, median of ${p.pairs.length} back-to-back pairs: ${percentile(p.pairs, 50).toFixed(4)} ms`);
  const added = percentile(p.cached, 50) + percentile(p.pairs, 50);
  console.log(`added to search/fast by a key at p50 (guard from memory + statement difference): ${added.toFixed(4)} ms`);

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

interface KeyCostParts {
  cached: number[];
  fresh: number[];
  plain: number[];
  checked: number[];
  /** checked minus plain, pair by pair (the two ran back to back, in alternating order). */
  pairs: number[];
}

/** The guard's and the statement's part of a key's cost, alternated call by call. */
async function timeKeyParts(app: NestExpressApplication, key: string, user: string): Promise<KeyCostParts> {
  const authenticator = app.get(ApiKeyAuthenticator);
  const search = app.get(VectorSearch);
  const parts: KeyCostParts = { cached: [], fresh: [], plain: [], checked: [], pairs: [] };
  const time = async <T>(into: number[], call: () => Promise<T>): Promise<T> => {
    const t0 = process.hrtime.bigint();
    const result = await call();
    into.push(Number(process.hrtime.bigint() - t0) / 1e6);
    return result;
  };
  const found = await authenticator.authenticate(key);
  if (!found) throw new Error('the key did not authenticate');
  const recheck = { keyId: found.principal.keyId, revoked: () => undefined };
  const scope = { kind: 'user' as const, userId: user };
  // The guard's two ways each in a loop of their own: timed between database calls, the cached
  // way's few microseconds also caught whatever I/O callbacks were pending (the pool releasing
  // a client), about 35 µs at p50.
  for (let i = 0; i < 2000; i++) {
    if (!(await time(parts.cached, () => authenticator.authenticateForStatement(key)))) throw new Error('the key did not authenticate');
  }
  for (let i = 0; i < 2000; i++) {
    if (!(await time(parts.fresh, () => authenticator.authenticate(key)))) throw new Error('the key did not authenticate');
  }
  for (let i = 0; i < 2000; i++) {
    const vector = seededUnitVector(100_000 + (i % 50));
    const runs = [
      () => time(parts.plain, () => search.gatedNearest(scope, vector, { k: 10 })),
      () => time(parts.checked, () => search.gatedNearest(scope, vector, { k: 10, recheck })),
    ];
    for (const run of i % 2 === 0 ? runs : runs.reverse()) {
      if ((await run()).rows.length !== 10) throw new Error('the statement did not find 10 rows');
    }
    parts.pairs.push((parts.checked.at(-1) as number) - (parts.plain.at(-1) as number));
  }
  return parts;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
