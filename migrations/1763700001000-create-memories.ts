import type { MigrationInterface, QueryRunner } from 'typeorm';

import { migrationContext } from './migration-context';

/**
 * Memories, their episodes and visibility grants. Every table carries user_id and every index
 * leads with it, so the schema can be distributed by user_id (Citus) without rewriting queries.
 * Live rows are `deleted_at IS NULL AND expired_at IS NULL`; the partial indexes cover them.
 */
export class CreateMemories1763700001000 implements MigrationInterface {
  name = 'CreateMemories1763700001000';

  async up(runner: QueryRunner): Promise<void> {
    const dims = migrationContext.embeddingDimensions;
    await runner.query(`
      CREATE TABLE episodes (
        id            uuid PRIMARY KEY,
        user_id       text NOT NULL,
        workspace_id  uuid,
        agent_id      uuid,
        source_site   text NOT NULL,
        source_url    text,
        content       text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX episodes_user_created_idx ON episodes (user_id, created_at DESC)');

    await runner.query(`
      CREATE TABLE memories (
        id                uuid PRIMARY KEY,
        user_id           text NOT NULL,
        workspace_id      uuid,
        agent_id          uuid,
        visibility        text CHECK (visibility IN ('workspace', 'agent_only', 'restricted')),
        content           text NOT NULL,
        memory_type       text NOT NULL DEFAULT 'semantic' CHECK (memory_type IN ('semantic', 'episodic', 'procedural')),
        importance        real NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
        source_site       text NOT NULL,
        source_url        text,
        episode_id        uuid,
        namespace         text,
        status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'needs_clarification')),
        metadata          jsonb NOT NULL DEFAULT '{}'::jsonb,
        trust_score       real NOT NULL DEFAULT 1 CHECK (trust_score >= 0 AND trust_score <= 1),
        embedding         vector(${dims}) NOT NULL,
        content_tsv       tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        last_accessed_at  timestamptz,
        access_count      integer NOT NULL DEFAULT 0,
        deleted_at        timestamptz,
        expired_at        timestamptz,
        superseded_by     uuid,
        -- user-scope rows carry no workspace columns; a visibility only exists in a workspace
        CONSTRAINT memories_scope_columns CHECK (
          workspace_id IS NOT NULL OR (agent_id IS NULL AND visibility IS NULL)
        )
      )`);
    const live = 'deleted_at IS NULL AND expired_at IS NULL';
    await runner.query(
      `CREATE INDEX memories_user_scope_idx ON memories (user_id, created_at DESC) WHERE workspace_id IS NULL AND ${live}`,
    );
    await runner.query(`CREATE INDEX memories_workspace_scope_idx ON memories (user_id, workspace_id, created_at DESC) WHERE ${live}`);
    await runner.query(`CREATE INDEX memories_workspace_agent_idx ON memories (user_id, workspace_id, agent_id) WHERE ${live}`);
    await runner.query(`CREATE INDEX memories_user_source_idx ON memories (user_id, source_site) WHERE workspace_id IS NULL AND ${live}`);
    await runner.query(`CREATE INDEX memories_user_episode_idx ON memories (user_id, episode_id) WHERE ${live}`);
    await runner.query('CREATE INDEX memories_content_tsv_idx ON memories USING gin (content_tsv)');
    await runner.query('CREATE INDEX memories_embedding_hnsw_idx ON memories USING hnsw (embedding vector_cosine_ops)');

    await runner.query(`
      CREATE TABLE memory_visibility_grants (
        memory_id            uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        user_id              text NOT NULL,
        workspace_id         uuid NOT NULL,
        grantee_agent_id     uuid NOT NULL,
        granted_by_agent_id  uuid NOT NULL,
        created_at           timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT memory_visibility_grants_pkey PRIMARY KEY (memory_id, grantee_agent_id)
      )`);
    await runner.query(
      'CREATE INDEX memory_visibility_grants_grantee_idx ON memory_visibility_grants (user_id, workspace_id, grantee_agent_id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS memory_visibility_grants');
    await runner.query('DROP TABLE IF EXISTS memories');
    await runner.query('DROP TABLE IF EXISTS episodes');
  }
}
