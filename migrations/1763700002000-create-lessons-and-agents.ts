import type { MigrationInterface, QueryRunner } from 'typeorm';

import { migrationContext } from './migration-context';

/**
 * Lessons (per-user failure patterns checked on every search) and per-agent trust levels.
 * The lesson check reads a user's active lessons by exact distance: the partial index on
 * (user_id) WHERE active keeps that to the user's own rows.
 */
export class CreateLessonsAndAgents1763700002000 implements MigrationInterface {
  name = 'CreateLessonsAndAgents1763700002000';

  async up(runner: QueryRunner): Promise<void> {
    const dims = migrationContext.embeddingDimensions;
    await runner.query(`
      CREATE TABLE lessons (
        id                 uuid PRIMARY KEY,
        user_id            text NOT NULL,
        lesson_type        text NOT NULL CHECK (lesson_type IN
                             ('injection_blocked', 'trust_violation', 'contradiction_pattern', 'false_memory', 'user_reported')),
        pattern            text NOT NULL,
        embedding          vector(${dims}) NOT NULL,
        source_memory_ids  uuid[] NOT NULL DEFAULT '{}',
        source_query       text,
        severity           text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
        active             boolean NOT NULL DEFAULT true,
        metadata           jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at         timestamptz NOT NULL DEFAULT now(),
        retired_at         timestamptz
      )`);
    await runner.query('CREATE INDEX lessons_user_active_idx ON lessons (user_id, created_at DESC) WHERE active');
    await runner.query('CREATE INDEX lessons_user_type_idx ON lessons (user_id, lesson_type) WHERE active');
    // The same automatic lesson seen again is one lesson with a count, not a new row per attack.
    await runner.query(
      `CREATE UNIQUE INDEX lessons_seen_once_idx ON lessons (user_id, lesson_type, md5(pattern))
        WHERE active AND lesson_type <> 'user_reported'`,
    );

    await runner.query(`
      CREATE TABLE agents (
        user_id       text NOT NULL,
        agent_id      uuid NOT NULL,
        trust_level   real NOT NULL CHECK (trust_level >= 0 AND trust_level <= 1),
        display_name  text,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT agents_pkey PRIMARY KEY (user_id, agent_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS agents');
    await runner.query('DROP TABLE IF EXISTS lessons');
  }
}
