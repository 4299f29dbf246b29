import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (CONTRACT section 10) and the audit log.
 *
 * api_keys: only a SHA-256 of the secret is stored; `key_prefix` is a short non-secret part of
 * the key (the first characters after `atr_`) with a unique index, so authentication is one
 * indexed lookup followed by a constant-time comparison of the hashes. `user_id` is `*` for
 * service keys. Rows are revoked (revoked_at), never deleted, so audit events keep a target.
 *
 * audit_events: append-only. The index on (user_id, at DESC, id DESC) serves the admin query
 * "events of a user, newest first" (optionally since a time); the admin route's other filters
 * (workspace, action) narrow that range.
 */
export class CreateApiKeysAndAuditEvents1763700012000 implements MigrationInterface {
  name = 'CreateApiKeysAndAuditEvents1763700012000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('agent', 'user', 'service')),
        user_id text NOT NULL,
        workspace_id uuid,
        agent_id uuid,
        label text,
        key_hash bytea NOT NULL,
        key_prefix text NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        rate_limit_per_minute integer CHECK (rate_limit_per_minute IS NULL OR rate_limit_per_minute > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (role <> 'agent' OR (workspace_id IS NOT NULL AND agent_id IS NOT NULL)),
        CHECK (role <> 'service' OR user_id = '*')
      )`);
    await runner.query('CREATE UNIQUE INDEX api_keys_prefix_idx ON api_keys (key_prefix)');
    await runner.query('CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC)');
    await runner.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        action text NOT NULL,
        user_id text,
        workspace_id uuid,
        agent_id uuid,
        key_id uuid,
        target_id text,
        request_id text,
        detail jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await runner.query('CREATE INDEX audit_events_user_at_idx ON audit_events (user_id, at DESC, id DESC)');
    await runner.query('CREATE INDEX audit_events_at_idx ON audit_events (at DESC, id DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE audit_events');
    await runner.query('DROP TABLE api_keys');
  }
}
