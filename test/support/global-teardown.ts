import { rm } from 'node:fs/promises';

import { Client } from 'pg';

/** Drops the template and anything a crashed test file left behind. */
export default async function globalTeardown(): Promise<void> {
  const runId = process.env.ATRIUM_TEST_RUN_ID;
  if (process.env.ATRIUM_TEST_TEMPLATE_DIR) {
    await rm(process.env.ATRIUM_TEST_TEMPLATE_DIR, { recursive: true, force: true });
  }
  if (process.env.DATABASE_URL && runId) {
    const client = new Client({ connectionString: process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
        `atrium_t_${runId}_%`,
      ]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
}
