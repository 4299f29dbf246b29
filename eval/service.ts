/**
 * A fresh Atrium for one evaluation run: an embedded data directory in a temporary folder, or
 * (with a PostgreSQL URL) a database of its own, created before and dropped after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import { startServer, type RunningServer } from '../bench/server';

export interface EvalService {
  url: string;
  database: string;
  stop(): Promise<void>;
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function startEvalService(postgresUrl: string | undefined, env: Record<string, string>): Promise<EvalService> {
  if (postgresUrl) {
    const name = `atrium_eval_${Date.now().toString(36)}_${process.pid}`;
    await adminQuery(postgresUrl, `CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    let server: RunningServer;
    try {
      server = await startServer({ ...env, DATABASE_URL: url.toString() });
    } catch (error) {
      await adminQuery(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      throw error;
    }
    return {
      url: server.url,
      database: 'postgres',
      async stop() {
        await server.stop();
        await adminQuery(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-eval-'));
  let server: RunningServer;
  try {
    server = await startServer({ ...env, DATA_DIR: dataDir });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    database: 'embedded',
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` over `items` with at most `limit` in flight; results in input order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * POST with up to two retries on a network error (a pooled keep-alive connection the server
 * has just closed fails the request before it is sent). An HTTP error status is not retried.
 */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch (error) {
      if (attempt >= 2) throw new Error(`${url}: ${(error as Error).message} (${String((error as { cause?: unknown }).cause ?? '')})`);
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
}
