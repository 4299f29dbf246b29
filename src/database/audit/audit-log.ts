import { randomUUID } from 'node:crypto';

import type { EntityManager } from 'typeorm';

import type { Actor } from '../../common/identity/principal';
import type { AuditAction } from '../../contract/admin-wire-types';

export { AUDIT_ACTIONS, type AuditAction } from '../../contract/admin-wire-types';

/**
 * Identifiers and facts about a change, never memory content, lesson patterns or secrets:
 * only ids, enum values, counts and field names belong here.
 */
export type AuditDetail = Record<string, string | number | boolean | null | readonly string[]>;

export interface AuditEvent {
  action: AuditAction;
  /** Whose data changed (the tenant); null for config changes. `*` for service keys. */
  userId: string | null;
  workspaceId?: string | null;
  /** The acting agent, when an agent acted. */
  agentId?: string | null;
  /** The memory, lesson, key or agent the change is about (the memory for grants); null for config. */
  targetId: string | null;
  detail?: AuditDetail;
}

/**
 * Append one event with the statement manager of the change's own transaction, so the change
 * and its event commit or roll back together (there is no other way to write audit_events).
 * Callers pass the transaction's EntityManager: never the data source's default manager.
 */
export async function appendAuditEvent(manager: EntityManager, actor: Actor, event: AuditEvent): Promise<void> {
  await appendAuditEvents(manager, actor, [event]);
}

/** Several events of one transaction (an ingest that stores many rows) in one statement. */
export async function appendAuditEvents(manager: EntityManager, actor: Actor, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const { sql, parameters } = auditInsert(actor, events, 0);
  await manager.query(sql, parameters);
}

/**
 * The INSERT of `events` with its parameters numbered from `$${offset + 1}`, for a statement
 * that writes the change and its events together (a data-modifying CTE beside the change's
 * own INSERT: one statement commits or fails as a whole). `events` must not be empty.
 *
 * With `afterHeld`, the events are read from their values joined to the statement's one-row CTE
 * `held`, so no event is written before it has produced its row: the subject locks a
 * single-statement write takes first (memory-access.ts, HELD_SUBJECTS).
 */
export function auditInsert(
  actor: Actor,
  events: readonly AuditEvent[],
  offset: number,
  afterHeld = false,
): { sql: string; parameters: unknown[] } {
  if (events.length === 0) throw new Error('auditInsert: no events');
  const values: string[] = [];
  const parameters: unknown[] = [];
  for (const event of events) {
    const n = offset + parameters.length;
    values.push(
      `(CAST($${n + 1} AS uuid), CAST($${n + 2} AS text), CAST($${n + 3} AS text), CAST($${n + 4} AS uuid), CAST($${n + 5} AS uuid), ` +
        `CAST($${n + 6} AS uuid), CAST($${n + 7} AS text), CAST($${n + 8} AS text), CAST($${n + 9} AS jsonb))`,
    );
    parameters.push(
      randomUUID(),
      event.action,
      event.userId,
      event.workspaceId ?? null,
      event.agentId ?? null,
      actor.keyId,
      event.targetId,
      actor.requestId,
      JSON.stringify(event.detail ?? {}),
    );
  }
  const rows = afterHeld ? `SELECT v.* FROM (VALUES ${values.join(', ')}) AS v CROSS JOIN held` : `VALUES ${values.join(', ')}`;
  return {
    sql: `INSERT INTO audit_events (id, action, user_id, workspace_id, agent_id, key_id, target_id, request_id, detail) ${rows} RETURNING *`,
    parameters,
  };
}

/** The tenant columns of an event from a memory scope's ids. */
export function scopeColumns(
  scope: { kind: 'user'; userId: string } | { kind: 'workspace'; userId: string; workspaceId: string; agentId: string },
) {
  return scope.kind === 'workspace'
    ? { userId: scope.userId, workspaceId: scope.workspaceId, agentId: scope.agentId }
    : { userId: scope.userId, workspaceId: null, agentId: null };
}
