import { escapeIdentifier } from 'pg';
import type { EntityManager } from 'typeorm';

import { assertNever } from '../../common/errors/domain-error';
import { TENANT_GRAPH_PREFIX, tenantGraphName } from '../maintenance/tenant-graphs';

/**
 * Erasure of a subject for good (CONTRACT section 13): a user, one workspace of a user, or one
 * agent of a workspace. Everything here runs in the one transaction of MemoryAccess.erase.
 */
export type ErasureSubject =
  | { kind: 'user'; userId: string }
  | { kind: 'workspace'; userId: string; workspaceId: string }
  | { kind: 'agent'; userId: string; workspaceId: string; agentId: string };

/** The columns of one table that can hold a subject's ids. */
export interface SubjectColumns {
  user: string;
  workspace: string | null;
  agent: readonly string[];
}

/**
 * Every table that can hold a user's, a workspace's or an agent's id, with the columns that do:
 * the one list erasure deletes from and counts the residue in. A test
 * (test/data/erasure.int.spec.ts) reads the schema (information_schema: every column named
 * `user_id`, `workspace_id` or `*agent_id`) and fails when a table or column is missing here,
 * so a new table that forgets erasure fails CI.
 */
export const SUBJECT_TABLES = {
  memories: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  memory_versions: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  memory_visibility_grants: { user: 'user_id', workspace: 'workspace_id', agent: ['grantee_agent_id', 'granted_by_agent_id'] },
  memory_access_counts: { user: 'user_id', workspace: null, agent: [] },
  // BM25 statistics (migration 1763700400000): deleting the memories appends their negative
  // changes, still naming the subject, so these go after the memories.
  memory_term_stats: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id', 'grantee_agent_id'] },
  // Their change rows not yet folded (migration 1763700700000), the deletion's included.
  memory_term_changes: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id', 'grantee_agent_id'] },
  // Postings (migration 1763700600000): the triggers remove a memory's with it; listed for the
  // residue count, and for rows a grant to an erased agent left on another agent's memory.
  memory_postings: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id', 'grantee_agent_id'] },
  episodes: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  lessons: { user: 'user_id', workspace: null, agent: [] },
  agents: { user: 'user_id', workspace: null, agent: ['agent_id'] },
  api_keys: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  audit_events: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  webhook_subscriptions: { user: 'user_id', workspace: 'workspace_id', agent: ['agent_id'] },
  // Events name a workspace, agent or memory only inside the payload (matched as text, as audit details are).
  webhook_outbox: { user: 'user_id', workspace: null, agent: [] },
} as const satisfies Record<string, SubjectColumns>;

export type SubjectTable = keyof typeof SUBJECT_TABLES;

/** What erasure did, table by table, and what was left (all zeros, or the transaction rolled back). */
export interface ErasureReceipt {
  erased: Record<string, number>;
  residue: Record<string, number>;
}

/**
 * The advisory lock of a user's data, an expression over one text parameter: erasure takes it
 * exclusively (pg_advisory_xact_lock), the statements that create a user's rows (memories and
 * episodes and access counts in MemoryAccess, lessons, trust levels, API keys, webhook
 * subscriptions) take it shared in their transaction. A write that began before the erasure is
 * therefore committed before the erasure's DELETEs run (and erased with the rest);
 * one that begins after waits for the erasure to commit and then writes anew. Transaction-scoped
 * locks only: nothing outlives the transaction, so it works behind a transaction-mode pooler.
 */
export const SUBJECT_LOCK_KEY = (parameter: string): string => `hashtextextended('atrium.subject:' || ${parameter}, 0)`;

interface Bound {
  /** Conditions on the memories alias `m` selecting the subject's memories. */
  memories: string;
  parameters: unknown[];
}

function bound(subject: ErasureSubject): Bound {
  switch (subject.kind) {
    case 'user':
      return { memories: 'm.user_id = $1', parameters: [subject.userId] };
    case 'workspace':
      return { memories: 'm.user_id = $1 AND m.workspace_id = CAST($2 AS uuid)', parameters: [subject.userId, subject.workspaceId] };
    case 'agent':
      return {
        memories: 'm.user_id = $1 AND m.workspace_id = CAST($2 AS uuid) AND m.agent_id = CAST($3 AS uuid)',
        parameters: [subject.userId, subject.workspaceId, subject.agentId],
      };
    default:
      return assertNever(subject);
  }
}

/** The rows of `table` that name the subject, as a condition over the alias `t` ($1 user, $2 workspace, $3 agent). */
function namesSubject(table: SubjectTable, subject: ErasureSubject): string | null {
  const columns: SubjectColumns = SUBJECT_TABLES[table];
  const user = `t.${columns.user} = $1`;
  if (table === 'webhook_outbox' && subject.kind !== 'user') {
    const id = subject.kind === 'workspace' ? 'CAST(CAST($2 AS uuid) AS text)' : 'CAST(CAST($3 AS uuid) AS text)';
    return `${user} AND strpos(CAST(t.payload AS text), ${id}) > 0`;
  }
  switch (subject.kind) {
    case 'user':
      return user;
    case 'workspace':
      return columns.workspace === null ? null : `${user} AND t.${columns.workspace} = CAST($2 AS uuid)`;
    case 'agent': {
      if (columns.agent.length === 0) return null;
      const agent = `(${columns.agent.map((c) => `t.${c} = CAST($3 AS uuid)`).join(' OR ')})`;
      if (columns.workspace === null) return `${user} AND ${agent}`;
      // Audit events name an agent as the actor, as the target (its trust level: no workspace) or
      // in the detail (a grant to it, made by another agent).
      if (table === 'audit_events') {
        const text = 'CAST(CAST($3 AS uuid) AS text)';
        return (
          `${user} AND ((t.workspace_id = CAST($2 AS uuid) AND ${agent}) OR t.target_id = ${text}` +
          ` OR strpos(CAST(t.detail AS text), ${text}) > 0)`
        );
      }
      return `${user} AND t.${columns.workspace} = CAST($2 AS uuid) AND ${agent}`;
    }
    default:
      return assertNever(subject);
  }
}

/**
 * The conditions that together name the subject's rows of `table`, each read by one statement.
 * A user's postings are two: its personal rows and its workspace rows are in two partial indexes
 * (migration 1763700900000), and as one condition (or an OR of the two) the planner reads the
 * whole table.
 */
function subjectConditions(table: SubjectTable, subject: ErasureSubject): string[] {
  const condition = namesSubject(table, subject);
  if (condition === null) return [];
  if (table === 'memory_postings' && subject.kind === 'user') {
    return [`${condition} AND t.workspace_id IS NULL`, `${condition} AND t.workspace_id IS NOT NULL`];
  }
  return [condition];
}

/**
 * The statement with only the parameters it names, renumbered ($1 user, $2 workspace, $3 agent
 * are shared by every statement here; PostgreSQL refuses a parameter a statement does not use).
 */
function usedParameters(sql: string, parameters: unknown[]): [string, unknown[]] {
  const used = [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const renumbered = new Map(used.map((n, i) => [n, i + 1]));
  return [sql.replace(/\$(\d+)/g, (_, n: string) => `$${renumbered.get(Number(n))}`), used.map((n) => parameters[n - 1])];
}

const run = (manager: EntityManager, sql: string, parameters: unknown[]): Promise<unknown[]> =>
  manager.query(...usedParameters(sql, parameters));

const count = async (manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> => {
  const rows = (await run(manager, sql, parameters)) as { n: number | string }[];
  return Number(rows[0]?.n ?? 0);
};

/** A DELETE or UPDATE as a counted CTE (TypeORM returns [rows, count] for a bare one). */
const counted = (manager: EntityManager, statement: string, parameters: unknown[]): Promise<number> =>
  count(manager, `WITH changed AS (${statement} RETURNING 1) SELECT count(*) AS n FROM changed`, parameters);

/**
 * Deletes every trace of the subject, skeletons its audit events, drops its tenant graphs and
 * counts the residue, on `manager` (inside the erasure's transaction). Returns the receipt;
 * the caller rolls back when a residue is not zero.
 */
export async function eraseSubject(manager: EntityManager, subject: ErasureSubject): Promise<ErasureReceipt> {
  const { memories, parameters } = bound(subject);
  await manager.query(`SELECT pg_advisory_xact_lock(${SUBJECT_LOCK_KEY('$1')})`, [subject.userId]);
  const erasedMemories = `SELECT m.id FROM memories m WHERE ${memories}`;
  const erased: Record<string, number> = {};

  // The graphs of the scopes that disappear (a user's personal scope and each of its
  // workspaces, or the one workspace), named before their rows go.
  const graphs = await erasedGraphs(manager, subject);
  const erasedIds = ((await run(manager, erasedMemories, parameters)) as { id: string }[]).map((row) => row.id);

  // Rows hanging off the subject's memories, then the memories (with their vectors).
  erased.memory_versions = await counted(
    manager,
    `DELETE FROM memory_versions v WHERE v.user_id = $1 AND v.memory_id IN (${erasedMemories})`,
    parameters,
  );
  erased.memory_access_counts = await counted(
    manager,
    `DELETE FROM memory_access_counts c WHERE c.user_id = $1 AND c.memory_id IN (${erasedMemories})`,
    parameters,
  );
  const grants = namesSubject('memory_visibility_grants', subject) as string;
  erased.memory_visibility_grants = await counted(
    manager,
    `DELETE FROM memory_visibility_grants t WHERE t.user_id = $1 AND (${grants} OR t.memory_id IN (${erasedMemories}))`,
    parameters,
  );
  if (subject.kind === 'user') {
    erased.lessons = await counted(manager, 'DELETE FROM lessons t WHERE t.user_id = $1', parameters);
  } else {
    // The user's lessons stay; their sources lose the erased memories.
    erased.lesson_sources = await counted(
      manager,
      `UPDATE lessons t SET source_memory_ids = ARRAY(SELECT s FROM unnest(t.source_memory_ids) s WHERE s NOT IN (${erasedMemories}))
        WHERE t.user_id = $1 AND t.source_memory_ids && ARRAY(${erasedMemories})`,
      parameters,
    );
    // Other memories that point at an erased successor forget it.
    await run(
      manager,
      `UPDATE memories o SET superseded_by = NULL
        WHERE o.user_id = $1 AND o.superseded_by IN (${erasedMemories}) AND o.id NOT IN (${erasedMemories})`,
      parameters,
    );
    if (subject.kind === 'agent') {
      // Versions of other agents' memories that this agent changed keep the change, not the agent.
      erased.memory_versions_attributions = await counted(
        manager,
        `UPDATE memory_versions t SET agent_id = NULL, key_id = NULL WHERE ${namesSubject('memory_versions', subject) as string}`,
        parameters,
      );
    }
  }
  erased.memories = await counted(manager, `DELETE FROM memories m WHERE ${memories}`, parameters);
  // The statistics the subject's rows counted in, the changes their deletion just appended
  // included; pending and past deliveries about the subject, then the subscriptions that read
  // as it (their remaining deliveries go with them by the foreign key).
  for (const table of [
    'memory_term_stats',
    'memory_term_changes',
    'memory_postings',
    'episodes',
    'agents',
    'api_keys',
    'webhook_outbox',
    'webhook_subscriptions',
  ] as const) {
    const conditions = subjectConditions(table, subject);
    if (conditions.length === 0) continue;
    erased[table] = 0;
    for (const condition of conditions) erased[table] += await counted(manager, `DELETE FROM ${table} t WHERE ${condition}`, parameters);
  }
  // Audit events keep id, at and action; everything that names anyone goes.
  erased.audit_events = await counted(
    manager,
    `UPDATE audit_events t SET user_id = NULL, workspace_id = NULL, agent_id = NULL, key_id = NULL, target_id = NULL,
            request_id = NULL, detail = '{}'::jsonb
      WHERE ${namesSubject('audit_events', subject) as string}`,
    parameters,
  );
  // Last, so the partition's lock is held only for the rest of this transaction.
  for (const name of graphs) await manager.query(`DROP INDEX IF EXISTS ${escapeIdentifier(name)}`);
  erased.tenant_graphs = graphs.length;

  return { erased, residue: await residue(manager, subject, erasedIds, graphs) };
}

/** The tenant graphs (per-scope HNSW indexes) of the scopes the erasure removes that exist. */
async function erasedGraphs(manager: EntityManager, subject: ErasureSubject): Promise<string[]> {
  let names: string[];
  switch (subject.kind) {
    case 'user': {
      const workspaces: { workspace_id: string }[] = await manager.query(
        'SELECT DISTINCT m.workspace_id FROM memories m WHERE m.user_id = $1 AND m.workspace_id IS NOT NULL',
        [subject.userId],
      );
      names = [null, ...workspaces.map((w) => w.workspace_id)].map((workspaceId) =>
        tenantGraphName({ userId: subject.userId, workspaceId }),
      );
      break;
    }
    case 'workspace':
      names = [tenantGraphName({ userId: subject.userId, workspaceId: subject.workspaceId })];
      break;
    case 'agent':
      return [];
    default:
      return assertNever(subject);
  }
  return existingIndexes(manager, names);
}

async function existingIndexes(manager: EntityManager, names: string[]): Promise<string[]> {
  const rows: { name: string }[] = await manager.query(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relkind = 'i' AND c.relname = ANY(CAST($1 AS text[])) AND c.relname LIKE $2 AND c.relnamespace = current_schema()::regnamespace`,
    [names, `${TENANT_GRAPH_PREFIX.replace(/_/g, '\\_')}%`],
  );
  return rows.map((r) => r.name);
}

/**
 * What is left of the subject, counted again after the deletion in the same transaction: in
 * every table of SUBJECT_TABLES, the rows that still name it (audit events: any that still
 * carry more than id, at and action), and by id the erased memories, their access counts, the
 * lesson sources naming them, and the tenant graphs.
 */
async function residue(
  manager: EntityManager,
  subject: ErasureSubject,
  erasedIds: string[],
  graphs: string[],
): Promise<Record<string, number>> {
  const { parameters } = bound(subject);
  const left: Record<string, number> = {};
  for (const table of Object.keys(SUBJECT_TABLES) as SubjectTable[]) {
    const conditions = subjectConditions(table, subject);
    if (conditions.length === 0) continue;
    left[table] = 0;
    for (const condition of conditions)
      left[table] += await count(manager, `SELECT count(*) AS n FROM ${table} t WHERE ${condition}`, parameters);
  }
  // The erased memories' own traces, by id (whatever else the user's tables hold).
  left.memories_by_id = await count(
    manager,
    'SELECT count(*) AS n FROM memories m WHERE m.user_id = $1 AND m.id = ANY(CAST($2 AS uuid[]))',
    [subject.userId, erasedIds],
  );
  left.memory_access_counts =
    (left.memory_access_counts ?? 0) +
    (await count(
      manager,
      'SELECT count(*) AS n FROM memory_access_counts c WHERE c.user_id = $1 AND c.memory_id = ANY(CAST($2 AS uuid[]))',
      [subject.userId, erasedIds],
    ));
  left.lesson_sources = await count(
    manager,
    'SELECT count(*) AS n FROM lessons l WHERE l.user_id = $1 AND l.source_memory_ids && CAST($2 AS uuid[])',
    [subject.userId, erasedIds],
  );
  left.tenant_graphs = (await existingIndexes(manager, graphs)).length;
  return left;
}
