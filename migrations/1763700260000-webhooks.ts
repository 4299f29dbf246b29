import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/observability.md#webhooks).
 *
 * webhook_subscriptions: per user, managed with the admin token. A subscription has the
 * bindings of an API key (no workspace: a user key; workspace and agent: an agent key), and
 * receives an event about a memory only when that key could read the memory. The secret is
 * kept as given (`whsec_...`): signing needs it.
 *
 * webhook_outbox: one row per event and subscriber, written by the statement (or in the
 * transaction) of the change it reports, so an event exists exactly when its change
 * committed. `user_id` is the data subject (an erasure deletes its rows). Workers claim due
 * rows with FOR UPDATE SKIP LOCKED and a lease (`next_attempt_at` moved forward), so each
 * row is sent by one instance at a time; `pending` until a 2xx answer (`delivered`) or
 * WEBHOOK_MAX_ATTEMPTS failures (`dead`, kept for the admin route).
 */
export class Webhooks1763700260000 implements MigrationInterface {
  name = 'Webhooks1763700260000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        workspace_id uuid,
        agent_id uuid,
        url text NOT NULL,
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((workspace_id IS NULL) = (agent_id IS NULL))
      )`);
    await runner.query('CREATE INDEX webhook_subscriptions_user_idx ON webhook_subscriptions (user_id, created_at DESC)');
    await runner.query(`
      CREATE TABLE webhook_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
        user_id text NOT NULL,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await runner.query(`CREATE INDEX webhook_outbox_due_idx ON webhook_outbox (next_attempt_at) WHERE status = 'pending'`);
    await runner.query('CREATE INDEX webhook_outbox_user_idx ON webhook_outbox (user_id, created_at DESC)');
    await runner.query('CREATE INDEX webhook_outbox_subscription_idx ON webhook_outbox (subscription_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_outbox');
    await runner.query('DROP TABLE webhook_subscriptions');
  }
}
