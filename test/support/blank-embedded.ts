import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

/**
 * A fresh embedded data directory costs an initdb in WebAssembly: 5-8 s alone on these machines,
 * 60-90 s beside a busy test run, and several files need one (the missing-pgvector check, the
 * NOTIFY probe, the memory settings, the template). So initdb runs once: global setup keeps a
 * blank, never-migrated data directory in node_modules/.cache (one per PGlite version, shared
 * by the runs of a CI job), and a test that wants a fresh embedded server starts on a copy,
 * which opens in under a second. A blank directory has no extension: a copy serves the runs
 * with and without pgvector alike.
 */
const NODE_MODULES = resolve(__dirname, '../../node_modules');

const cacheDir = (): string => {
  const { version } = JSON.parse(readFileSync(join(NODE_MODULES, '@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  return join(NODE_MODULES, '.cache/atrium-test', `pglite-${version}-blank`);
};

/** Global setup: the blank data directory, made now unless an earlier run left it. */
export async function ensureBlankEmbeddedDir(): Promise<string> {
  const target = cacheDir();
  if (existsSync(join(target, 'pg', 'PG_VERSION'))) return target;
  await mkdir(resolve(target, '..'), { recursive: true });
  const building = await mkdtemp(`${target}-building-`);
  const embedded = await startEmbeddedPostgres({ dataDir: building, withVector: false });
  await embedded.close();
  try {
    await rename(building, target);
  } catch (error) {
    // Another run finished first (rename onto a non-empty directory fails): use that one.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(join(target, 'pg', 'PG_VERSION'))) throw error;
  }
  return target;
}

/** A new temporary data directory holding a copy of the blank one (remove it when done). */
export async function copyBlankEmbeddedDir(prefix: string): Promise<string> {
  const blank = process.env.ATRIUM_TEST_BLANK_DIR;
  if (!blank) throw new Error('global setup did not make the blank embedded data directory');
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await cp(blank, dir, { recursive: true });
  return dir;
}
