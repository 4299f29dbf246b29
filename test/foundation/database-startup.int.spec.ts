import { rm } from 'node:fs/promises';

import { DataSource } from 'typeorm';

import { ALL_MIGRATIONS } from '../../migrations';
import { createApp } from '../../src/app/bootstrap';
import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { DatabaseStartupError, ensurePgvector } from '../../src/database/pgvector';
import { prepareDatabase } from '../../src/database/prepare-database';
import { configuredIdentity } from '../../src/embeddings/embedding-identity';
import { loadEnv } from '../../src/env/env.schema';
import { copyBlankEmbeddedDir } from '../support/blank-embedded';
import { createTestApp } from '../support/test-app';

describe('startup checks', () => {
  it('stops with one clear line naming pgvector when the extension is missing', async () => {
    // A real PostgreSQL (embedded, PG 18) started without the pgvector extension.
    const dir = await copyBlankEmbeddedDir('atrium-novector-');
    const embedded = await startEmbeddedPostgres({ dataDir: dir, withVector: false });
    const env = loadEnv({});
    const dataSource = new DataSource(buildDataSourceOptions({ kind: 'embedded', embedded, description: 'x' }, env));
    await dataSource.initialize();
    try {
      const attempt = prepareDatabase(dataSource, {
        where: 'db.example:5432/atrium',
        embeddingDimensions: 384,
        embeddingIdentity: 'hash/feature-hash-v1/384',
      });
      await expect(attempt).rejects.toBeInstanceOf(DatabaseStartupError);
      await expect(attempt).rejects.toThrow(
        /^pgvector is not installed on the PostgreSQL server at db\.example:5432\/atrium\. Install pgvector >= 0\.8/,
      );
      const message = await attempt.catch((e: Error) => e.message);
      expect(message).not.toContain('\n');
      // nothing was migrated
      const tables = await dataSource.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'atrium_migrations'",
      );
      expect(tables[0].n).toBe(0);
    } finally {
      await dataSource.destroy();
      await embedded.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('explains when pgvector is available but cannot be created', async () => {
    const calls: string[] = [];
    const query = async (sql: string) => {
      calls.push(sql);
      if (sql.startsWith('SELECT default_version')) return [{ default_version: '0.8.0', installed_version: null }];
      throw new Error('permission denied to create extension "vector"');
    };
    await expect(ensurePgvector(query, 'h:5432/db')).rejects.toThrow(
      /^pgvector is available on h:5432\/db but the extension could not be created: permission denied/,
    );
  });

  it('refuses a pgvector older than 0.8', async () => {
    const query = async () => [{ default_version: '0.7.4', installed_version: '0.7.4' }];
    await expect(ensurePgvector(query, 'h:5432/db')).rejects.toThrow(/pgvector 0\.7\.4 on h:5432\/db is too old/);
  });
});

describe('embedding dimensions', () => {
  it('stop startup when EMBEDDING_DIMENSIONS does not match the vector columns', async () => {
    const t = await createTestApp();
    try {
      const attempt = prepareDatabase(t.dataSource, {
        where: 'test',
        embeddingDimensions: 256,
        embeddingIdentity: 'hash/feature-hash-v1/256',
        migrate: false,
      });
      await expect(attempt).rejects.toBeInstanceOf(DatabaseStartupError);
      await expect(attempt).rejects.toThrow(/^EMBEDDING_DIMENSIONS is 256 but (memories|lessons)\.embedding is vector\(384\)/);
    } finally {
      await t.close();
    }
  });
});

describe('the embedded database', () => {
  it('keeps data across a restart of the app on the same DATA_DIR', async () => {
    const first = await createTestApp();
    const dataDir = first.env.DATA_DIR;
    try {
      if (first.env.DATABASE_URL) {
        // PostgreSQL run: the embedded path is exercised by the embedded run of this suite.
        await first.dataSource.query('CREATE TABLE restart_probe (v text)');
        await first.dataSource.query("INSERT INTO restart_probe VALUES ('kept')");
        await first.app.close();
        const again = new DataSource({ type: 'postgres', url: first.env.DATABASE_URL });
        await again.initialize();
        expect(await again.query('SELECT v FROM restart_probe')).toEqual([{ v: 'kept' }]);
        await again.destroy();
        return;
      }
      await first.dataSource.query('CREATE TABLE restart_probe (v text)');
      await first.dataSource.query("INSERT INTO restart_probe VALUES ('kept')");
      await first.app.close();
      const env = loadEnv({ LOG_LEVEL: 'silent', EMBEDDING_PROVIDER: 'hash', DATA_DIR: dataDir });
      const second = await createApp(env);
      await second.init();
      try {
        expect(await second.get(DataSource).query('SELECT v FROM restart_probe')).toEqual([{ v: 'kept' }]);
      } finally {
        await second.close();
      }
    } finally {
      await first.db.drop();
    }
  });
});

describe('migrations', () => {
  it('each has a working down(): reverting all and re-applying succeeds', async () => {
    const t = await createTestApp();
    try {
      const ds = t.dataSource;
      const applied = await ds.query('SELECT name FROM atrium_migrations ORDER BY id');
      expect(applied.map((r: { name: string }) => r.name)).toEqual(ALL_MIGRATIONS.map((m) => m.name));
      for (let i = 0; i < ALL_MIGRATIONS.length; i++) await ds.undoLastMigration({ transaction: 'each' });
      expect(await ds.query('SELECT name FROM atrium_migrations')).toEqual([]);
      await prepareDatabase(ds, {
        where: 'test',
        embeddingDimensions: t.env.EMBEDDING_DIMENSIONS,
        embeddingIdentity: configuredIdentity(t.env),
      });
      const again = await ds.query('SELECT name FROM atrium_migrations ORDER BY id');
      expect(again).toHaveLength(ALL_MIGRATIONS.length);
    } finally {
      await t.close();
    }
  });
});

describe('GET /health', () => {
  it('answers 503 when the database does not answer', async () => {
    const t = await createTestApp();
    try {
      await t.dataSource.destroy();
      const res = await t.http().get('/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unavailable');
    } finally {
      await t.close();
    }
  });
});
