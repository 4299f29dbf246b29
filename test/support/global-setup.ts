import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DataSource } from 'typeorm';

import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { closeDatabaseTarget, openDatabaseTarget } from '../../src/database/database-target';
import { prepareDatabase } from '../../src/database/prepare-database';
import { configuredIdentity } from '../../src/embeddings/embedding-identity';
import { loadEnv } from '../../src/env/env.schema';
import { ensureBlankEmbeddedDir } from './blank-embedded';
import { adminQuery, adminUrl, withDatabase } from './test-database';

/**
 * Runs once per `jest` run: builds a migrated template database (PostgreSQL when
 * DATABASE_URL is set, else an embedded data directory) that every test file clones.
 * Values set on process.env here reach the workers. Both kinds of run also get a blank embedded
 * data directory (blank-embedded.ts) for the tests that start an embedded server of their own.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  process.env.ATRIUM_TEST_RUN_ID = runId;
  const blank = await ensureBlankEmbeddedDir();
  process.env.ATRIUM_TEST_BLANK_DIR = blank;
  const base = loadEnv({ ...process.env, EMBEDDING_PROVIDER: 'hash' });

  if (process.env.DATABASE_URL) {
    const template = `atrium_t_${runId}_tpl`;
    await adminQuery(`CREATE DATABASE "${template}"`);
    const env = { ...base, DATABASE_URL: withDatabase(adminUrl(), template), DATABASE_DIRECT_URL: undefined };
    await migrate(env);
    process.env.ATRIUM_TEST_TEMPLATE_DB = template;
    return;
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-test-tpl-'));
  await cp(blank, dataDir, { recursive: true });
  await migrate({ ...base, DATABASE_URL: undefined, DATABASE_DIRECT_URL: undefined, DATA_DIR: dataDir });
  process.env.ATRIUM_TEST_TEMPLATE_DIR = dataDir;
}

async function migrate(env: ReturnType<typeof loadEnv>): Promise<void> {
  const target = await openDatabaseTarget(env);
  const dataSource = new DataSource(buildDataSourceOptions(target, env, 'direct'));
  try {
    await dataSource.initialize();
    await prepareDatabase(dataSource, {
      where: target.description,
      embeddingDimensions: env.EMBEDDING_DIMENSIONS,
      embeddingIdentity: configuredIdentity(env),
    });
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await closeDatabaseTarget(target);
  }
}
