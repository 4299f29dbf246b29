import { rm } from 'node:fs/promises';

import { Client } from 'pg';

import { closeDatabaseTarget, openDatabaseTarget } from '../../src/database/database-target';
import { loadEnv } from '../../src/env/env.schema';
import { copyBlankEmbeddedDir } from '../support/blank-embedded';

/**
 * The embedded database's memory settings (docs/configuration.md): EMBEDDED_SHARED_BUFFERS is
 * what the server runs with, read back with SHOW, and a changed value takes effect on a data
 * directory that already exists (PGlite rewrites postgresql.conf at every start). The test
 * starts its own embedded server whatever DATABASE_URL says.
 */
describe('embedded database settings', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await copyBlankEmbeddedDir('atrium-embedded-settings-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const show = async (settings: Record<string, string>, names: string[]): Promise<string[]> => {
    const target = await openDatabaseTarget(loadEnv({ DATA_DIR: dir, ...settings }));
    if (target.kind !== 'embedded') throw new Error('expected the embedded database');
    const { host, port, username: user, database } = target.embedded;
    const client = new Client({ host, port, user, database });
    await client.connect();
    try {
      const values: string[] = [];
      for (const name of names) values.push((await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name]);
      return values;
    } finally {
      await client.end();
      await closeDatabaseTarget(target);
    }
  };

  it('runs with the default shared_buffers, then with a changed one on the same data directory', async () => {
    expect(await show({}, ['shared_buffers'])).toEqual([loadEnv({}).EMBEDDED_SHARED_BUFFERS]);
    expect(await show({ EMBEDDED_SHARED_BUFFERS: '24MB' }, ['shared_buffers'])).toEqual(['24MB']);
  });
});
