import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

/**
 * A database of its own for one test file, so files run in parallel:
 * - with DATABASE_URL (PostgreSQL): CREATE DATABASE ... TEMPLATE <migrated template>;
 * - without (embedded PGlite): a copy of a migrated template data directory.
 * The templates are made once per run by global-setup.ts.
 */
export interface TestDatabase {
  /** Environment overrides that point the app at this database. */
  env: Record<string, string>;
  /** Connection URL (PostgreSQL only). */
  url?: string;
  drop(): Promise<void>;
}

export const isPostgresRun = (): boolean => Boolean(process.env.DATABASE_URL);

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Where the harness creates and drops databases: DATABASE_DIRECT_URL when the suite runs
 * through PgBouncer (a pooler keeps server connections to the template open, which
 * CREATE DATABASE ... TEMPLATE refuses), else DATABASE_URL.
 */
export const adminUrl = (): string => (process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL) as string;

export async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const suffix = randomBytes(4).toString('hex');
  if (isPostgresRun()) {
    const template = process.env.ATRIUM_TEST_TEMPLATE_DB;
    if (!template) throw new Error('global setup did not create a template database');
    const name = `${template.replace(/_tpl$/, '')}_${suffix}`;
    for (let attempt = 0; ; attempt++) {
      try {
        await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        // Two files cloning the template at the same instant: try again shortly.
        if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 300));
      }
    }
    const url = withDatabase(process.env.DATABASE_URL as string, name);
    const direct: Record<string, string> = process.env.DATABASE_DIRECT_URL
      ? { DATABASE_DIRECT_URL: withDatabase(process.env.DATABASE_DIRECT_URL, name) }
      : {};
    return {
      env: { DATABASE_URL: url, ...direct },
      url,
      drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const templateDir = process.env.ATRIUM_TEST_TEMPLATE_DIR;
  if (!templateDir) throw new Error('global setup did not create a template data directory');
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-test-'));
  await cp(templateDir, dataDir, { recursive: true });
  return {
    env: { DATABASE_URL: '', DATABASE_DIRECT_URL: '', DATA_DIR: dataDir },
    drop: () => rm(dataDir, { recursive: true, force: true }),
  };
}
