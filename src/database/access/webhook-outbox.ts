import type { AuditAction } from '../audit/audit-log';
import { subscriberReadCondition } from './visibility';

/**
 * Webhook events (docs/observability.md#webhooks) and the SQL that writes them to the outbox.
 * Events are written by the statement that writes the change's audit events, so they commit
 * with the change or not at all. Payloads carry ids and metadata, never content: a memory's
 * id, owner, workspace, agent and visibility; a lesson's id, type and severity.
 */
export const WEBHOOK_EVENTS = ['memory.stored', 'memory.updated', 'memory.deleted', 'lesson.recorded', 'lesson.matched'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Which audited changes are which memory events (visibility changes and supersessions are updates). */
const MEMORY_EVENTS: Partial<Record<AuditAction, WebhookEventType>> = {
  'memory.stored': 'memory.stored',
  'memory.updated': 'memory.updated',
  'memory.visibility_changed': 'memory.updated',
  'memory.superseded': 'memory.updated',
  'memory.deleted': 'memory.deleted',
};
const LESSON_ACTIONS: readonly AuditAction[] = ['lesson.recorded', 'lesson.reported'];

const NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const OUTBOX_COLUMNS = 'INSERT INTO webhook_outbox (event_id, subscription_id, user_id, event_type, payload)';

export const isMemoryEvent = (action: AuditAction): boolean => MEMORY_EVENTS[action] !== undefined;
export const isLessonEvent = (action: AuditAction): boolean => LESSON_ACTIONS.includes(action);

/**
 * Data-modifying CTEs (each `name AS (INSERT ...)`) that fan the audit events of `audited` (a
 * CTE of `INSERT INTO audit_events ... RETURNING *`) out to the subscriptions that want them:
 * - memory events: one row per subscriber whose bindings could read the memory now
 *   (visibility.subscriberReadCondition), reading the memory from `memories` (a change made by
 *   an earlier statement of the transaction) or from the CTE `stored` (rows this statement inserts);
 * - lesson events: every subscriber of the user (lessons are the user's, as on the lesson routes).
 * One pair per user among the events, each pinned to its user by a bound parameter (numbered
 * from `$${offset + 1}`): one shard under Citus, and no event of one user can reach another's
 * subscriber. Events of neither kind add nothing.
 */
export function outboxCtes(
  events: readonly { action: AuditAction; userId: string | null }[],
  memorySource: 'memories' | 'stored',
  offset: number,
): { ctes: string[]; parameters: string[] } {
  const users = [
    ...new Set(
      events.filter((e) => e.userId !== null && (isMemoryEvent(e.action) || isLessonEvent(e.action))).map((e) => e.userId as string),
    ),
  ];
  const ctes: string[] = [];
  users.forEach((userId, i) => {
    const user = `CAST($${offset + i + 1} AS text)`;
    const actions = events.filter((e) => e.userId === userId).map((e) => e.action);
    const memoryActions = [...new Set(actions.filter(isMemoryEvent))];
    if (memoryActions.length > 0) {
      const mapping = memoryActions.map((action) => `('${action}', '${MEMORY_EVENTS[action]}')`).join(', ');
      const source =
        memorySource === 'stored'
          ? 'JOIN stored m ON CAST(m.id AS text) = a.target_id'
          : `JOIN memories m ON m.user_id = ${user} AND m.id = CAST(a.target_id AS uuid)`;
      ctes.push(`webhook_memory_events_${i} AS (${OUTBOX_COLUMNS}
        SELECT a.id, s.id, s.user_id, ev.type,
               jsonb_build_object('type', ev.type, 'timestamp', ${NOW}, 'data', jsonb_build_object(
                 'event_id', a.id, 'memory_id', m.id, 'user_id', m.user_id, 'workspace_id', m.workspace_id, 'agent_id', m.agent_id,
                 'visibility', m.visibility, 'action', a.action, 'actor_agent_id', a.agent_id, 'detail', a.detail))
          FROM audited a
          JOIN (VALUES ${mapping}) AS ev (action, type) ON ev.action = a.action
          ${source}
          JOIN webhook_subscriptions s ON s.user_id = ${user} AND ev.type = ANY (s.events)
         WHERE a.user_id = ${user} AND ${subscriberReadCondition('m', 's', user)})`);
    }
    if (actions.some(isLessonEvent)) {
      ctes.push(`webhook_lesson_events_${i} AS (${OUTBOX_COLUMNS}
        SELECT a.id, s.id, s.user_id, 'lesson.recorded',
               jsonb_build_object('type', 'lesson.recorded', 'timestamp', ${NOW}, 'data', jsonb_build_object(
                 'event_id', a.id, 'lesson_id', a.target_id, 'user_id', a.user_id, 'lesson_type', a.detail -> 'lesson_type',
                 'severity', a.detail -> 'severity'))
          FROM audited a
          JOIN webhook_subscriptions s ON s.user_id = ${user} AND 'lesson.recorded' = ANY (s.events)
         WHERE a.user_id = ${user} AND a.action IN (${LESSON_ACTIONS.map((action) => `'${action}'`).join(', ')}))`);
    }
  });
  return { ctes, parameters: users };
}

/**
 * `lesson.matched`: a search failed closed on a critical lesson. To the subscribers of the
 * user in the search's own scope: its workspace (every agent of it), or the user's personal
 * scope. Parameters: event id, user, workspace (or null), agent (or null), lesson ids (JSON), highest severity.
 */
export const LESSON_MATCHED_SQL = `${OUTBOX_COLUMNS}
  SELECT CAST($1 AS uuid), s.id, s.user_id, 'lesson.matched',
         jsonb_build_object('type', 'lesson.matched', 'timestamp', ${NOW}, 'data', jsonb_build_object(
           'event_id', CAST($1 AS uuid), 'user_id', CAST($2 AS text), 'workspace_id', CAST($3 AS uuid), 'agent_id', CAST($4 AS uuid),
           'lesson_ids', CAST($5 AS jsonb), 'highest_severity', CAST($6 AS text)))
    FROM webhook_subscriptions s
   WHERE s.user_id = $2 AND 'lesson.matched' = ANY (s.events) AND s.workspace_id IS NOT DISTINCT FROM CAST($3 AS uuid)`;
