/**
 * How long a runtime config change takes to reach an instance, by each path it can take.
 *
 *   npm run bench:config                                   # embedded database
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:config
 *
 * PostgreSQL: two Atrium instances in this process on a fresh database.
 * - notification: a change applied through instance A (the PUT's service call, stored and
 *   NOTIFYed in one transaction); the time until instance B applies it, with B's version poll
 *   set to a minute so only the LISTEN connection can bring it;
 * - poll only: the row changed by another writer without NOTIFY; the time until B applies it
 *   with the default poll (RUNTIME_CONFIG_POLL_MS, 500 ms).
 * Embedded: one instance (one process owns a DATA_DIR, and NOTIFY does not reach a listener
 * through its socket server); the row changed without NOTIFY, time until the poll applies it.
 * Prints median, p95 and max in milliseconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createApp } from '../src/app/bootstrap';
import { SYSTEM_ACTOR } from '../src/common/identity/principal';
import { loadEnv } from '../src/env/env.schema';
import { SettingsService } from '../src/settings/settings.service';
import { percentile } from './random';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

const summary = (label: string, values: number[]): string =>
  `${label}: n=${values.length} median ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

async function until(settings: SettingsService, version: number): Promise<number> {
  const started = performance.now();
  while (settings.configVersion() < version) {
    if (performance.now() - started > 10_000) throw new Error(`version ${version} not applied within 10 s`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now() - started;
}

/** Another writer: merges a change into the row without NOTIFY; returns the new version. */
async function bumpWithoutNotify(dataSource: DataSource, round: number): Promise<number> {
  const [row]: { version: string }[] = await dataSource.query(
    `WITH changed AS (UPDATE runtime_config SET settings = settings || CAST($1 AS jsonb), version = version + 1 RETURNING version)
     SELECT version FROM changed`,
    [JSON.stringify({ max_search_results: 1 + (round % 100) })],
  );
  return Number(row.version);
}

/** Waits a random 0-600 ms, so a change lands anywhere in the poll cycle. */
const jitter = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * 600));

async function start(overrides: Record<string, string>): Promise<NestExpressApplication> {
  const app = await createApp(
    loadEnv({ ...process.env, LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash', CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true', ...overrides }),
  );
  await app.init();
  return app;
}

async function onPostgres(baseUrl: string): Promise<void> {
  const name = `atrium_bench_cfg_${Date.now()}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    const a = await start({ DATABASE_URL: url.toString() });
    const bNotify = await start({ DATABASE_URL: url.toString(), RUNTIME_CONFIG_POLL_MS: '60000' });
    const notified: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await jitter();
      const { config } = await a.get(SettingsService).apply({ max_search_results: 1 + (round % 100) }, SYSTEM_ACTOR);
      notified.push(await until(bNotify.get(SettingsService), config.config_version as number));
    }
    await bNotify.close();
    const bPoll = await start({ DATABASE_URL: url.toString() });
    const polled: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await jitter();
      polled.push(await until(bPoll.get(SettingsService), await bumpWithoutNotify(a.get(DataSource), round)));
    }
    await bPoll.close();
    await a.close();
    console.log('PostgreSQL, two instances in one process:');
    console.log(`  ${summary('change through A, applied on B by NOTIFY (B polls once a minute)', notified)}`);
    console.log(`  ${summary('row changed without NOTIFY, applied on B by the 500 ms poll', polled)}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function onEmbedded(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-cfg-'));
  try {
    const app = await start({ DATABASE_URL: '', DATA_DIR: dataDir });
    const polled: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await jitter();
      polled.push(await until(app.get(SettingsService), await bumpWithoutNotify(app.get(DataSource), round)));
    }
    await app.close();
    console.log('embedded PGlite, one instance:');
    console.log(`  ${summary('row changed without NOTIFY, applied by the 500 ms poll', polled)}`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.DATABASE_URL) await onPostgres(process.env.DATABASE_URL);
  else await onEmbedded();
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
