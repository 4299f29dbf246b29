import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import type { DataSource, EntityManager } from 'typeorm';

import { createApp } from '../../src/app/bootstrap';
import { RUNTIME_CONFIG_CHANNEL } from '../../src/database/runtime-config.store';
import { loadEnv } from '../../src/env/env.schema';
import { SettingsService } from '../../src/settings/settings.service';
import { createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

/** The requirement: every instance applies a change within one second. */
const PROPAGATION_BOUND_MS = 1000;

/** Resolves with the milliseconds until `settings` applies `version`, or rejects past `withinMs`. */
async function appliedWithin(settings: SettingsService, version: number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (settings.configVersion() < version) {
    if (Date.now() - started > withinMs) {
      throw new Error(`config version ${version} not applied after ${withinMs} ms (still ${settings.configVersion()})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** What another writer does: merge `json` into the row and raise the version, without NOTIFY. */
async function bumpRow(db: DataSource | EntityManager, json: string): Promise<number> {
  const [row]: { version: string }[] = await db.query(
    `WITH changed AS (UPDATE runtime_config SET settings = settings || CAST($1 AS jsonb), version = version + 1 RETURNING version)
     SELECT version FROM changed`,
    [json],
  );
  return Number(row.version);
}

describe('the runtime config stored in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true', RUNTIME_CONFIG_POLL_MS: '100' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('raises config_version by one per change and shows it on /v1/memories/health', async () => {
    const before = (await t.http().get('/v1/memories/health')).body.config.config_version as number;
    const put = await t.http().put('/v1/memories/config').send({ max_search_results: 7 });
    expect(put.status).toBe(200);
    expect(put.body.config.config_version).toBe(before + 1);
    const health = await t.http().get('/v1/memories/health');
    expect(health.body.config).toMatchObject({ config_version: before + 1, max_search_results: 7 });
    const [row] = await t.dataSource.query('SELECT version, settings FROM runtime_config');
    expect(Number(row.version)).toBe(before + 1);
    expect(row.settings).toMatchObject({ max_search_results: 7 });
  });

  it('keeps the version and the row when a change is refused', async () => {
    const before = (await t.http().get('/v1/memories/health')).body.config;
    const [rowBefore] = await t.dataSource.query('SELECT version, settings FROM runtime_config');
    expect((await t.http().put('/v1/memories/config').send({ max_search_results: 7, colour: 'red' })).status).toBe(400);
    expect((await t.http().put('/v1/memories/config').send({ embedding_model: 'x' })).status).toBe(400);
    expect((await t.http().get('/v1/memories/health')).body.config).toEqual(before);
    expect(await t.dataSource.query('SELECT version, settings FROM runtime_config')).toEqual([rowBefore]);
  });

  it('merges successive changes: fields not sent keep their stored values', async () => {
    await t.http().put('/v1/memories/config').send({ lessons_enabled: false }).expect(200);
    const res = await t.http().put('/v1/memories/config').send({ duplicate_threshold: 0.9 }).expect(200);
    expect(res.body.config).toMatchObject({ lessons_enabled: false, duplicate_threshold: 0.9, max_search_results: 7 });
  });

  it('applies a change another writer committed without a notification, through the version poll', async () => {
    const settings = t.app.get(SettingsService);
    const version = await bumpRow(t.dataSource, '{"lesson_similarity_threshold": 0.66}');
    await appliedWithin(settings, version, PROPAGATION_BOUND_MS);
    expect(settings.current().lessonSimilarityThreshold).toBe(0.66);
  });

  it('ignores a stored field it does not know or no longer accepts, and applies the rest', async () => {
    const settings = t.app.get(SettingsService);
    const version = await bumpRow(t.dataSource, '{"future_field": 1, "max_search_results": 1000, "trust_score_min_threshold": 0.2}');
    await appliedWithin(settings, version, PROPAGATION_BOUND_MS);
    expect(settings.current().trustScoreMinThreshold).toBe(0.2);
    expect(settings.current().maxSearchResults).toBe(t.env.MAX_SEARCH_RESULTS);
    const health = await t.http().get('/v1/memories/health');
    expect(health.body.config).not.toHaveProperty('future_field');
  });
});

describe('several instances on one PostgreSQL database', () => {
  if (!isPostgresRun()) {
    // The embedded database belongs to one process (its DATA_DIR); a second instance cannot open
    // it. The PGlite socket server's NOTIFY behaviour is pinned in test/settings/embedded-notify.int.spec.ts.
    it('has one instance only on the embedded database, which applies its own changes at once', async () => {
      const t = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true', RUNTIME_CONFIG_POLL_MS: '60000' });
      try {
        const res = await t.http().put('/v1/memories/config').send({ lessons_enabled: false }).expect(200);
        expect(t.app.get(SettingsService).configVersion()).toBe(res.body.config.config_version);
        expect((await t.http().get('/v1/memories/health')).body.config.lessons_enabled).toBe(false);
      } finally {
        await t.close();
      }
    });
    return;
  }

  let first: TestApp;
  let second: NestExpressApplication;
  beforeAll(async () => {
    // A poll of a minute: within the one-second bound only the notification can have done it.
    first = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true', RUNTIME_CONFIG_POLL_MS: '60000' });
    second = await createApp(
      loadEnv({ ...process.env, ...first.db.env, LOG_LEVEL: 'silent', EMBEDDING_PROVIDER: 'hash', RUNTIME_CONFIG_POLL_MS: '60000' }),
    );
    await second.init();
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('applies a change made on one instance on the other within a second, by NOTIFY', async () => {
    const res = await first.http().put('/v1/memories/config').send({ max_search_results: 5 }).expect(200);
    await appliedWithin(second.get(SettingsService), res.body.config.config_version, PROPAGATION_BOUND_MS);
    const health = await request(second.getHttpServer()).get('/v1/memories/health').expect(200);
    expect(health.body.config).toMatchObject({ max_search_results: 5, config_version: res.body.config.config_version });
  });

  it('starts a new instance with the stored config, not the environment alone', async () => {
    const res = await first
      .http()
      .put('/v1/memories/config')
      .send({ trusted_source_sites: ['docs.example.com'] })
      .expect(200);
    const third = await createApp(loadEnv({ ...process.env, ...first.db.env, LOG_LEVEL: 'silent', EMBEDDING_PROVIDER: 'hash' }));
    await third.init();
    try {
      expect(third.get(SettingsService).configVersion()).toBe(res.body.config.config_version);
      expect(third.get(SettingsService).current().trustedSourceSites).toEqual(['docs.example.com']);
    } finally {
      await third.close();
    }
  });

  it('reconnects its listener after the connection is killed and catches up on what it missed', async () => {
    const settings = second.get(SettingsService);
    const admin = new Client({ connectionString: first.db.env.DATABASE_DIRECT_URL ?? first.db.env.DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'atrium-config-listener'`,
      );
      // one listener per instance (a closed instance's backend may still be on its way out)
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);
      // Changed while the listeners are down: nobody hears this NOTIFY.
      const version = await first.dataSource.transaction(async (manager) => {
        const bumped = await bumpRow(manager, '{"duplicate_threshold": 0.91}');
        await manager.query('SELECT pg_notify($1, $2)', [RUNTIME_CONFIG_CHANNEL, String(bumped)]);
        return bumped;
      });
      await appliedWithin(settings, version, PROPAGATION_BOUND_MS);
      expect(settings.current().duplicateThreshold).toBe(0.91);
      // and it listens again: the next change arrives by notification
      const res = await first.http().put('/v1/memories/config').send({ duplicate_threshold: 0.92 }).expect(200);
      await appliedWithin(settings, res.body.config.config_version, PROPAGATION_BOUND_MS);
    } finally {
      await admin.end();
    }
  });
});
