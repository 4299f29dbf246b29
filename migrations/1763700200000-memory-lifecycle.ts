import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Memories that change (CONTRACT section 12): a version per change, expiry, and valid time.
 *
 * - `expired_at` (set when ingest superseded a row) is renamed `superseded_at`, so that it no
 *   longer reads like the new `expires_at`. PostgreSQL keeps the partial indexes' predicates
 *   (they refer to the column, not its name), the tenant graphs' included.
 * - `version` (1 at creation, +1 per change), `expires_at` (null = never) and `valid_until`
 *   (null = still valid; set to the successor's created_at when a row is superseded).
 * - `memory_versions`: one row per change of a memory, written in the statement that makes the
 *   change (MemoryAccess). Keyed by (user_id, memory_id, version) like every tenant table, and
 *   removed with its memory (a foreign key with ON DELETE CASCADE: the expiry purge and the
 *   erasure delete memories for good).
 * - Backfill: every existing memory gets its `created` version (version 1); superseded rows get
 *   `valid_until` from their successor (or, without one, from when they were superseded).
 * - Two partial indexes: expiring rows (the purge and the expiry filter) and rows that are no
 *   longer current (deleted or superseded), which `as_of` reads besides the live rows.
 */
export class MemoryLifecycle1763700200000 implements MigrationInterface {
  name = 'MemoryLifecycle1763700200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories RENAME COLUMN expired_at TO superseded_at');
    await runner.query(
      `ALTER TABLE memories
         ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
         ADD COLUMN expires_at timestamptz,
         ADD COLUMN valid_until timestamptz`,
    );
    await runner.query(
      `UPDATE memories o
          SET valid_until = COALESCE(
                (SELECT n.created_at FROM memories n WHERE n.user_id = o.user_id AND n.id = o.superseded_by),
                o.superseded_at)
        WHERE o.superseded_at IS NOT NULL`,
    );
    await runner.query(
      `CREATE TABLE memory_versions (
         user_id      text NOT NULL,
         memory_id    uuid NOT NULL,
         version      integer NOT NULL,
         change       text NOT NULL CHECK (change IN ('created', 'edited', 'visibility_changed', 'expiry_changed', 'superseded', 'deleted')),
         content      text NOT NULL,
         metadata     jsonb NOT NULL DEFAULT '{}'::jsonb,
         visibility   text,
         expires_at   timestamptz,
         workspace_id uuid,
         agent_id     uuid,
         key_id       uuid,
         changed_at   timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT memory_versions_pkey PRIMARY KEY (user_id, memory_id, version),
         CONSTRAINT memory_versions_memory_fkey FOREIGN KEY (memory_id, user_id) REFERENCES memories (id, user_id) ON DELETE CASCADE
       )`,
    );
    await runner.query(
      `INSERT INTO memory_versions (user_id, memory_id, version, change, content, metadata, visibility, expires_at, workspace_id, agent_id, changed_at)
       SELECT user_id, id, 1, 'created', content, metadata, visibility, NULL, workspace_id, agent_id, created_at FROM memories`,
    );
    await runner.query('CREATE INDEX memories_expires_idx ON memories (expires_at) WHERE expires_at IS NOT NULL');
    await runner.query(
      `CREATE INDEX memories_history_scope_idx ON memories (user_id, workspace_id, created_at)
        WHERE deleted_at IS NOT NULL OR superseded_at IS NOT NULL`,
    );
    await runner.query('ANALYZE memory_versions');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS memories_history_scope_idx');
    await runner.query('DROP INDEX IF EXISTS memories_expires_idx');
    await runner.query('DROP TABLE memory_versions');
    await runner.query('ALTER TABLE memories DROP COLUMN valid_until, DROP COLUMN expires_at, DROP COLUMN version');
    await runner.query('ALTER TABLE memories RENAME COLUMN superseded_at TO expired_at');
  }
}
