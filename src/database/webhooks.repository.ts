import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { SUBJECT_LOCK_KEY } from './access/erasure';

/** A subscription as stored (the secret only for the worker and the creation answer). */
export interface WebhookSubscriptionRow {
  id: string;
  user_id: string;
  workspace_id: string | null;
  agent_id: string | null;
  url: string;
  events: string[];
  created_at: Date;
}

export interface NewWebhookSubscription {
  id: string;
  userId: string;
  workspaceId: string | null;
  agentId: string | null;
  url: string;
  events: readonly string[];
  secret: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  subscription_id: string;
  user_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** A claimed delivery: the message and where it goes. */
export interface ClaimedDelivery {
  id: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string;
  secret: string;
}

/** TypeORM answers an UPDATE or DELETE on PostgreSQL with [rows, affected]: the rows either way. */
function rowsOf<T>(result: unknown): T[] {
  const value = result as unknown[];
  return value.length === 2 && Array.isArray(value[0]) && typeof value[1] === 'number' ? (value[0] as T[]) : (value as T[]);
}

const SUBSCRIPTION_COLUMNS = 'id, user_id, workspace_id, agent_id, url, events, created_at';
const DELIVERY_COLUMNS =
  'id, event_id, subscription_id, user_id, event_type, status, attempts, next_attempt_at, last_error, created_at, delivered_at';

/**
 * webhook_subscriptions (the admin's create/list/delete) and the delivery side of
 * webhook_outbox: claiming due rows across instances, recording each attempt, the admin's
 * view of deliveries. The outbox rows themselves are written by the door with each change
 * (database/access/webhook-outbox.ts). Neither table holds memory content.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the user's subject lock, shared, in the same transaction (access/erasure.ts,
   * SUBJECT_LOCK_KEY): a subscription created while the user is being erased waits for the
   * erasure to commit and is then created anew, and an erasure that starts meanwhile waits for
   * it and erases it with the rest; never a subscription half-erased.
   */
  async create(subscription: NewWebhookSubscription): Promise<WebhookSubscriptionRow> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock_shared(${SUBJECT_LOCK_KEY('$1')})`, [subscription.userId]);
      const rows: WebhookSubscriptionRow[] = await manager.query(
        `INSERT INTO webhook_subscriptions (id, user_id, workspace_id, agent_id, url, events, secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [
          subscription.id,
          subscription.userId,
          subscription.workspaceId,
          subscription.agentId,
          subscription.url,
          subscription.events,
          subscription.secret,
        ],
      );
      return rows[0];
    });
  }

  async list(userId?: string): Promise<WebhookSubscriptionRow[]> {
    return this.dataSource.query(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions
        WHERE ($1::text IS NULL OR user_id = $1) ORDER BY created_at DESC, id DESC LIMIT 1000`,
      [userId ?? null],
    );
  }

  /** Deletes the subscription and (cascade) its outbox rows; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(await this.dataSource.query('DELETE FROM webhook_subscriptions WHERE id = $1 RETURNING id', [id]));
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` due pending rows for this instance: locked with SKIP LOCKED (another
   * instance's concurrent claim takes other rows), counted as an attempt and leased (their
   * next attempt moved `leaseMs` ahead) in the same statement, so no other instance takes them
   * while this one sends. If this instance dies mid-send, the lease runs out and another
   * instance sends again: at least once, never twice at the same time.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const result: unknown = await this.dataSource.query(
      `UPDATE webhook_outbox o
          SET attempts = o.attempts + 1, next_attempt_at = now() + $2::bigint * interval '1 millisecond'
         FROM webhook_subscriptions s
        WHERE o.id IN (SELECT id FROM webhook_outbox
                        WHERE status = 'pending' AND next_attempt_at <= now()
                        ORDER BY next_attempt_at, id
                        LIMIT $1
                          FOR UPDATE SKIP LOCKED)
          AND s.id = o.subscription_id
      RETURNING o.id, o.event_type, o.payload, o.attempts, s.url, s.secret`,
      [limit, leaseMs],
    );
    return rowsOf<ClaimedDelivery>(result);
  }

  async markDelivered(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_outbox SET status = 'delivered', delivered_at = now(), last_error = NULL WHERE id = $1`, [
      id,
    ]);
  }

  /** A failed attempt: pending again after `retryInMs`, or `dead` once `maxAttempts` are used. */
  async markFailed(id: string, maxAttempts: number, retryInMs: number, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_outbox
          SET status = CASE WHEN attempts >= $2 THEN 'dead' ELSE 'pending' END,
              next_attempt_at = now() + $3::bigint * interval '1 millisecond',
              last_error = $4
        WHERE id = $1`,
      [id, maxAttempts, retryInMs, error.slice(0, 500)],
    );
  }

  async deliveries(filter: {
    userId?: string;
    subscriptionId?: string;
    status?: DeliveryStatus;
    limit: number;
  }): Promise<WebhookDeliveryRow[]> {
    return this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_outbox
        WHERE ($1::text IS NULL OR user_id = $1) AND ($2::uuid IS NULL OR subscription_id = $2) AND ($3::text IS NULL OR status = $3)
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [filter.userId ?? null, filter.subscriptionId ?? null, filter.status ?? null, filter.limit],
    );
  }
}
