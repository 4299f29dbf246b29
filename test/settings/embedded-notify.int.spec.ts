import { rm } from 'node:fs/promises';

import { Client } from 'pg';

import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { copyBlankEmbeddedDir } from '../support/blank-embedded';

/**
 * Why the embedded database has no config listener (src/settings/settings.service.ts): the
 * PGlite socket server runs every connection on one backend, so a NOTIFY is delivered to the
 * connection that sent it and never to the one that ran LISTEN. If a PGlite release changes
 * that, this test fails and the listener can be turned on there too.
 */
describe('NOTIFY through the embedded database socket server', () => {
  let dir: string;
  let embedded: EmbeddedPostgres;
  beforeAll(async () => {
    dir = await copyBlankEmbeddedDir('atrium-notify-');
    embedded = await startEmbeddedPostgres({ dataDir: dir, withVector: false });
  });
  afterAll(async () => {
    await embedded?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('comes back to the sending connection, not to the listening one', async () => {
    const connect = async (): Promise<{ client: Client; heard: string[] }> => {
      const client = new Client({ host: embedded.host, port: embedded.port, user: embedded.username, database: embedded.database });
      const heard: string[] = [];
      client.on('notification', (n) => heard.push(n.payload ?? ''));
      await client.connect();
      return { client, heard };
    };
    const listener = await connect();
    const sender = await connect();
    try {
      await listener.client.query('LISTEN atrium_probe');
      await sender.client.query("SELECT pg_notify('atrium_probe', 'v1')");
      await listener.client.query('SELECT 1'); // a round trip on the listener after the commit
      expect(sender.heard).toEqual(['v1']);
      expect(listener.heard).toEqual([]);
    } finally {
      await listener.client.end();
      await sender.client.end();
    }
  });
});
