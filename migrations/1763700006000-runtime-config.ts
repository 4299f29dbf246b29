import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The runtime config every instance shares (src/settings/runtime-config.store.ts): one row,
 * with the fields changed through PUT /v1/memories/config (`settings`, wire names; the
 * environment gives every other field) and a `version` that each change raises by one.
 * Instances learn of a change from a NOTIFY on `atrium_runtime_config` and, as the fallback,
 * by comparing `version` with their own.
 */
export class RuntimeConfig1763700006000 implements MigrationInterface {
  name = 'RuntimeConfig1763700006000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE runtime_config (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        version bigint NOT NULL DEFAULT 0,
        settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('INSERT INTO runtime_config (id) VALUES (1)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE runtime_config');
  }
}
