/**
 * What a recall over MCP costs beside the REST search it wraps (issue 22).
 *
 *   npm run bench:mcp                           # embedded database
 *   DATABASE_URL=postgres://... npm run bench:mcp
 *
 * One Atrium instance (AUTH_MODE=off) on a fresh database, BENCH_MEMORIES memories of one
 * agent in one workspace. Each round sends the same query both ways, back to back, in
 * alternating order, with the same HTTP client (fetch):
 * - REST: POST /v1/memories/search with the scope in the body;
 * - MCP: POST /mcp carrying a JSON-RPC tools/call of `recall`, the scope in X-Atrium-* headers
 *   (one POST per call: the server is stateless, so there is no session to set up first).
 * Prints p50 and p95 of each and the difference at p50 (printed, not asserted). Embedding
 * time is excluded the same way on both sides (hash provider + query cache).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { toVectorLiteral } from '../src/database/vector';
import { loadEnv } from '../src/env/env.schema';
import { percentile, seededUnitVector } from './random';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 1000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  let dataDir: string | undefined;
  let dbName: string | undefined;
  const overrides: Record<string, string> = { LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash', PORT: '0', AUTH_MODE: 'off' };
  if (serverUrl) {
    dbName = `atrium_bench_mcp_${Date.now()}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    overrides.DATABASE_URL = url.toString();
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-mcp-'));
    overrides.DATA_DIR = dataDir;
    overrides.DATABASE_URL = '';
  }
  const app = await createApp(loadEnv({ ...process.env, ...overrides }));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const base = `http://127.0.0.1:${port}`;

  const scope = { user_id: `bench-${randomUUID().slice(0, 8)}`, workspace_id: randomUUID(), agent_id: randomUUID() };
  const ds = app.get(DataSource);
  console.log(`database: ${serverUrl ? 'postgres' : 'embedded PGlite'}; ${MEMORIES} memories of one agent in one workspace`);
  for (let from = 0; from < MEMORIES; from += 500) {
    const rows = Array.from({ length: Math.min(500, MEMORIES - from) }, (_, i) => from + i);
    const values: unknown[] = [];
    const tuples = rows.map((i, j) => {
      values.push(randomUUID(), scope.user_id, scope.workspace_id, scope.agent_id, `bench memory ${i} about topic ${i % 37}`);
      values.push(toVectorLiteral(seededUnitVector(i + 1)));
      const k = j * 6;
      return `($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, 'workspace', $${k + 5}, 'bench', CAST($${k + 6} AS vector))`;
    });
    await ds.query(
      `INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, source_site, embedding) VALUES ${tuples.join(',')}`,
      values,
    );
  }
  await ds.query('ANALYZE');

  const queries = Array.from({ length: 50 }, (_, i) => `what do I know about topic ${i}`);
  const rest = async (query: string): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}/v1/memories/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...scope, query, limit: 10 }),
    });
    const json = (await res.json()) as { count: number };
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (!res.ok || json.count !== 10) throw new Error(`search answered ${res.status}`);
    return ms;
  };
  const mcpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-atrium-user-id': scope.user_id,
    'x-atrium-workspace-id': scope.workspace_id,
    'x-atrium-agent-id': scope.agent_id,
  };
  const mcp = async (query: string, id: number): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'recall', arguments: { query, limit: 10 } } }),
    });
    const json = (await res.json()) as { result?: { structuredContent?: { memories: unknown[] } } };
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (!res.ok || json.result?.structuredContent?.memories.length !== 10) throw new Error(`/mcp answered ${res.status}`);
    return ms;
  };

  for (let i = 0; i < 50; i++) {
    await rest(queries[i % queries.length]); // warm-up: plans, buffers, query-embedding cache
    await mcp(queries[i % queries.length], i);
  }
  const samples = { rest: [] as number[], mcp: [] as number[] };
  for (let i = 0; i < REQUESTS; i++) {
    const query = queries[i % queries.length];
    if (i % 2 === 0) {
      samples.rest.push(await rest(query));
      samples.mcp.push(await mcp(query, i));
    } else {
      samples.mcp.push(await mcp(query, i));
      samples.rest.push(await rest(query));
    }
  }
  const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(3)} ms p95 ${percentile(values, 95).toFixed(3)} ms`;
  const added = percentile(samples.mcp, 50) - percentile(samples.rest, 50);
  console.log(`POST /v1/memories/search   ${fmt(samples.rest)}`);
  console.log(`POST /mcp tools/call recall ${fmt(samples.mcp)}`);
  console.log(`added by MCP at p50: ${added.toFixed(3)} ms (${REQUESTS} requests each, alternating order)`);

  await app.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (serverUrl && dbName) {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
