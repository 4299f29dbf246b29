import { Brackets, type ObjectLiteral, type SelectQueryBuilder, type UpdateQueryBuilder, type WhereExpressionBuilder } from 'typeorm';

import { assertNever } from '../../common/errors/domain-error';
import type { AgentScope, MemoryScope } from '../../common/scope/memory-scope';

/**
 * The visibility modes of a workspace memory: the one list that the DTOs validate against,
 * the SQL below switches over and the database CHECK constraint is compared with (a test
 * reads the constraint back). Adding a mode: one member here, one entry in MODE_POLICY, one
 * migration widening the CHECK (CONTRIBUTING.md).
 */
export const VISIBILITY_MODES = ['workspace', 'agent_only', 'restricted'] as const;
export type VisibilityMode = (typeof VISIBILITY_MODES)[number];

/** The modes whose rows other agents read as `othersRead` says (memory_term_stats' classes follow them). */
export function modesOthersRead(othersRead: 'all' | 'none' | 'grantees'): VisibilityMode[] {
  return VISIBILITY_MODES.filter((mode) => MODE_POLICY[mode].othersRead === othersRead);
}

/** Message for a value outside VISIBILITY_MODES, shared by every DTO that takes one. */
export const VISIBILITY_MODES_MESSAGE = `visibility must be one of ${VISIBILITY_MODES.join(', ')}`;

/**
 * What each mode lets an agent other than the owner do. The owner may always read its own
 * rows; a NULL visibility (rows written before modes existed) reads like `workspace`.
 * - othersRead: `all` agents of the workspace, `none`, or only `grantees` (a grant row).
 * - othersMutateAtIngest: whether another agent's ingest may UPDATE / SUPERSEDE / DELETE it
 *   (CONTRACT section 5). A grant lets an agent read a restricted row, never change it.
 * A Record keyed by the union: a new mode without an entry does not compile.
 */
const MODE_POLICY: Record<VisibilityMode, { othersRead: 'all' | 'none' | 'grantees'; othersMutateAtIngest: boolean }> = {
  workspace: { othersRead: 'all', othersMutateAtIngest: true },
  agent_only: { othersRead: 'none', othersMutateAtIngest: false },
  restricted: { othersRead: 'grantees', othersMutateAtIngest: false },
};

/**
 * Why a statement touches memories. Each purpose is one rule set; no caller adjusts a scope
 * to get a different rule (the agent_scope rules included).
 * - `read`: what the caller may see, narrowed by its agent_scope (search, get, list, expand,
 *   access bookkeeping).
 * - `ingest-mutation`: rows an ingest decision, or a DELETE, may change: visible to the writer,
 *   and its own or shared with the whole workspace. agent_scope is ignored (writes are not narrowed).
 * - `writer-view`: everything the caller may read, agent_scope ignored: what a writer compares
 *   a new fact with (de-duplication, the LLM's decisions), and what tells "not yours" (403)
 *   from "not there" (404) on owner routes.
 * - `owner`: rows the caller owns (visibility changes, grants). In a workspace: agent_id is the
 *   caller; agent_scope ignored. In user scope every row of the user's personal memory.
 */
export type AccessPurpose = 'read' | 'writer-view' | 'ingest-mutation' | 'owner';

export type ScopableBuilder<T extends ObjectLiteral> = SelectQueryBuilder<T> | UpdateQueryBuilder<T>;

/** Who reads, as SQL expressions: the caller's bound `vis_` parameters, or a subscription row's columns (webhooks). */
interface Reader {
  userId: string;
  workspaceId: string;
  agentId: string;
}

const CALLER: Reader = { userId: ':vis_userId', workspaceId: ':vis_workspaceId', agentId: ':vis_agentId' };

/** A grant row for the reader on the memory `a` (same user and workspace as the reader). */
const grantExists = (a: string, who: Reader = CALLER): string =>
  `EXISTS (SELECT 1 FROM memory_visibility_grants vis_g WHERE vis_g.user_id = ${who.userId}` +
  ` AND vis_g.workspace_id = ${who.workspaceId} AND vis_g.grantee_agent_id = ${who.agentId} AND vis_g.memory_id = ${a}.id)`;

/**
 * The only place that writes the memory visibility predicate. Every statement on memories
 * gets it through MemoryAccess (database/access/memory-access.ts), which passes the purpose.
 *
 * Contract: adds ONE bracketed condition (AND-ed to whatever the builder has) that keeps
 * exactly the rows `scope` may touch for `purpose`:
 * - user scope: `user_id = :vis_userId AND workspace_id IS NULL` (never a workspace row);
 * - workspace scope: `user_id = :vis_userId AND workspace_id = :vis_workspaceId`, then by purpose:
 *   - read / writer-view: the caller's own rows, NULL-visibility rows, and per MODE_POLICY the
 *     rows of other agents (`workspace`: all; `restricted`: with a grant row for the caller
 *     under the same user and workspace; `agent_only`: none);
 *   - read only: agent_scope narrows (`self` = owner is the caller, `others` = owner IS
 *     DISTINCT FROM caller, ids = owner in the list, `all` = nothing more); never widens;
 *   - ingest-mutation: readable as in writer-view, and the caller's own or of a mode that
 *     lets others mutate;
 *   - owner: `agent_id = :vis_agentId`.
 * - the rows of the moment `time` reads (ReadTime; by default the current ones: not deleted,
 *   not superseded, not expired).
 * Caller ids are bound parameters prefixed `vis_` (TypeORM shares one parameter namespace
 * per builder), never text in SQL. Callers must not use `.where()`/`.orWhere()` afterwards:
 * `.where()` would replace this condition and `.orWhere()` would widen it (a lint rule
 * forbids both in repositories).
 */
export function applyMemoryScope<T extends ObjectLiteral, B extends ScopableBuilder<T>>(
  qb: B,
  alias: string,
  scope: MemoryScope,
  purpose: AccessPurpose,
  time: ReadTime = CURRENT,
): B {
  const a = alias;
  const rows = tenantRowConditions((column) => `${a}.${column}`, {
    userId: ':vis_userId',
    workspaceId: scope.kind === 'workspace' ? ':vis_workspaceId' : null,
  });
  qb.andWhere(
    new Brackets((where) => {
      for (const condition of rows.tenant) where.andWhere(condition);
      switch (scope.kind) {
        case 'user':
          break;
        case 'workspace':
          workspaceCondition(where, a, scope.agentScope, purpose);
          break;
        default:
          assertNever(scope);
      }
      where.andWhere(timeCondition(a, time));
    }),
  );
  qb.setParameters(scopeParameters(scope, time));
  return qb;
}

/**
 * The conditions that pin a statement to one tenant's live rows: its user, its workspace (or
 * none: the user's personal memories), live (not deleted, not superseded). `column` names a column
 * (with the statement's alias or bare), `values` are SQL expressions for the tenant's ids:
 * bound parameters in the visibility predicate above, escaped literals in a tenant graph's
 * partial-index predicate (maintenance/tenant-graphs.ts). Both are written from here because
 * PostgreSQL walks a tenant graph only when it can prove the index predicate from the
 * statement's own conditions: a drift between the two would silently turn the graphs off.
 */
export function tenantRowConditions(
  column: (name: 'user_id' | 'workspace_id' | 'deleted_at' | 'superseded_at') => string,
  values: { userId: string; workspaceId: string | null },
): { tenant: string[]; live: string[] } {
  return {
    tenant: [
      `${column('user_id')} = ${values.userId}`,
      values.workspaceId === null ? `${column('workspace_id')} IS NULL` : `${column('workspace_id')} = ${values.workspaceId}`,
    ],
    live: liveRowConditions(column),
  };
}

/** Not deleted, not superseded. */
function liveRowConditions(column: (name: 'deleted_at' | 'superseded_at') => string): string[] {
  return [`${column('deleted_at')} IS NULL`, `${column('superseded_at')} IS NULL`];
}

/**
 * Which moment a statement reads (CONTRACT section 12):
 * - `current`: what is true now: not deleted, not superseded, not past `expires_at`;
 * - `current-with-expired`: the same, expired rows included (get and list with
 *   include_expired=true, and the owner's changes, which may move an expiry back);
 * - `as-of`: what was known and valid at `at`: created by then, `valid_until` null or after
 *   it, not deleted by then, not expired at it (superseded and deleted rows included when they
 *   were still valid then);
 * - `any`: every row, deleted and superseded ones included (a memory's history).
 * Live rows are `deleted_at IS NULL AND superseded_at IS NULL` in every form that reads them,
 * written as such so that the partial indexes on live rows (and the tenant graphs) still apply.
 */
export type ReadTime =
  { kind: 'current' } | { kind: 'current-with-expired' } | { kind: 'as-of'; at: Date; branch?: AsOfBranch } | { kind: 'any' };

/**
 * One side of `as-of`: the rows still live (which the live partial indexes and the scope's
 * tenant graph serve) or the rows no longer current (the history index). Their union is `as-of`;
 * the HNSW plan searches the two sides apart, so that the live side can walk the tenant graph.
 */
export type AsOfBranch = 'live' | 'history';

/** What a statement's text depends on in its read time (the kind, and the as-of branch). */
function timeShapeKey(time: ReadTime): string {
  return time.kind === 'as-of' && time.branch ? `${time.kind}-${time.branch}` : time.kind;
}
export const CURRENT: ReadTime = Object.freeze({ kind: 'current' });

/** Live rows (not deleted, not superseded): the tenant graphs' condition too (tenantRowConditions). */
const LIVE = (a: string) => liveRowConditions((column) => `${a}.${column}`).join(' AND ');

/** The condition of the moment `time` reads, over the memories alias `a` (the predicate's own; also the admin export's). */
export function timeCondition(a: string, time: ReadTime): string {
  switch (time.kind) {
    case 'current':
      return `${LIVE(a)} AND (${a}.expires_at IS NULL OR ${a}.expires_at > now())`;
    case 'current-with-expired':
      return LIVE(a);
    case 'as-of': {
      const validThen =
        `${a}.created_at <= :vis_asOf AND (${a}.expires_at IS NULL OR ${a}.expires_at > :vis_asOf)` +
        ` AND (${a}.valid_until IS NULL OR ${a}.valid_until > :vis_asOf) AND (${a}.deleted_at IS NULL OR ${a}.deleted_at > :vis_asOf)`;
      const live = `${LIVE(a)} AND ${validThen}`;
      const history = `(${a}.deleted_at IS NOT NULL OR ${a}.superseded_at IS NOT NULL) AND ${validThen}`;
      if (time.branch === 'live') return live;
      if (time.branch === 'history') return history;
      // Two branches, live rows and the rest, so each can use its partial index (BitmapOr).
      return `((${live}) OR (${history}))`;
    }
    case 'any':
      return 'TRUE';
    default:
      return assertNever(time);
  }
}

/**
 * The values of the `vis_` parameters the predicate binds for `scope` (some may go unused
 * by a purpose). MemoryAccess binds these last, from the scope, on every statement it runs
 * (a caller never supplies them), including the shaped statements rendered once per shape.
 */
export function scopeParameters(scope: MemoryScope, time: ReadTime = CURRENT): Record<string, unknown> {
  const at = time.kind === 'as-of' ? { vis_asOf: time.at } : {};
  switch (scope.kind) {
    case 'user':
      return { vis_userId: scope.userId, ...at };
    case 'workspace': {
      const params: Record<string, unknown> = {
        vis_userId: scope.userId,
        vis_workspaceId: scope.workspaceId,
        vis_agentId: scope.agentId,
        ...at,
      };
      if (scope.agentScope.kind === 'agents') params.vis_agentScopeIds = [...scope.agentScope.agentIds];
      return params;
    }
    default:
      return assertNever(scope);
  }
}

/**
 * What the predicate's SQL text depends on (never the values): two scopes with the same key
 * get the same text from applyMemoryScope. Keys of statements rendered once per shape start
 * with it; a change here that makes the text depend on something else must extend the key.
 */
export function scopeShapeKey(scope: MemoryScope, purpose: AccessPurpose, time: ReadTime = CURRENT): string {
  switch (scope.kind) {
    case 'user':
      return `user:${purpose}:${timeShapeKey(time)}`;
    case 'workspace':
      return `workspace:${purpose}:${purpose === 'read' ? scope.agentScope.kind : '-'}:${timeShapeKey(time)}`;
    default:
      return assertNever(scope);
  }
}

function workspaceCondition(where: WhereExpressionBuilder, a: string, agentScope: AgentScope, purpose: AccessPurpose): void {
  switch (purpose) {
    case 'read': {
      where.andWhere(readableByOthersOrOwn(a));
      const narrowed = agentScopeCondition(a, agentScope);
      if (narrowed) where.andWhere(narrowed);
      return;
    }
    case 'writer-view':
      where.andWhere(readableByOthersOrOwn(a));
      return;
    case 'ingest-mutation':
      where.andWhere(readableByOthersOrOwn(a));
      where.andWhere(ownOr(a, (policy) => policy.othersMutateAtIngest));
      return;
    case 'owner':
      where.andWhere(`${a}.agent_id = :vis_agentId`);
      return;
    default:
      assertNever(purpose);
  }
}

/**
 * Why the read rule lets a workspace row through for the caller: it is the caller's own
 * (`owner`), open to every agent of the workspace (`workspace`: a NULL visibility or a mode
 * whose othersRead is `all`), or opened to the caller by a grant row (`grant`).
 */
export type ReadRule = 'owner' | 'workspace' | 'grant';

/**
 * The read rule's alternatives, each with the rule it stands for, in the order the predicate
 * writes them. readableByOthersOrOwn OR-s them all; readRuleConditions groups them by rule for
 * MemoryAccess.explainVisibility, so the explanation and the predicate are the same SQL.
 */
function readAlternatives(a: string, who: Reader = CALLER): { rule: ReadRule; sql: string }[] {
  const alternatives: { rule: ReadRule; sql: string }[] = [
    { rule: 'workspace', sql: `${a}.visibility IS NULL` },
    { rule: 'owner', sql: `${a}.agent_id = ${who.agentId}` },
  ];
  for (const mode of VISIBILITY_MODES) {
    const othersRead = MODE_POLICY[mode].othersRead;
    switch (othersRead) {
      case 'all':
        alternatives.push({ rule: 'workspace', sql: `${a}.visibility = '${mode}'` });
        break;
      case 'grantees':
        alternatives.push({ rule: 'grant', sql: `(${a}.visibility = '${mode}' AND ${grantExists(a, who)})` });
        break;
      case 'none':
        break;
      default:
        assertNever(othersRead);
    }
  }
  return alternatives;
}

/** Read rule: own rows, legacy NULL rows, and what MODE_POLICY opens to other agents. */
function readableByOthersOrOwn(a: string, who: Reader = CALLER): string {
  return `(${readAlternatives(a, who)
    .map((alternative) => alternative.sql)
    .join(' OR ')})`;
}

/**
 * One boolean SQL condition per ReadRule on the row `a`, over the same `vis_` parameters as
 * applyMemoryScope (a rule no mode uses is `FALSE`). They say which alternative of the read
 * rule holds for a row; whether the row is readable at all (the right user and workspace,
 * live) is still the whole predicate's answer.
 */
export function readRuleConditions(a: string): Record<ReadRule, string> {
  const alternatives = readAlternatives(a);
  const of = (rule: ReadRule): string => {
    const parts = alternatives.filter((alternative) => alternative.rule === rule).map((alternative) => alternative.sql);
    return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
  };
  return { owner: of('owner'), workspace: of('workspace'), grant: of('grant') };
}

/** Own rows, legacy NULL rows, and the modes `allowed` opens to other agents. */
function ownOr(a: string, allowed: (policy: (typeof MODE_POLICY)[VisibilityMode]) => boolean): string {
  const modes = VISIBILITY_MODES.filter((mode) => allowed(MODE_POLICY[mode]));
  const parts = [`${a}.agent_id = :vis_agentId`, `${a}.visibility IS NULL`, ...modes.map((mode) => `${a}.visibility = '${mode}'`)];
  return `(${parts.join(' OR ')})`;
}

function agentScopeCondition(a: string, agentScope: AgentScope): string | undefined {
  switch (agentScope.kind) {
    case 'all':
      return undefined;
    case 'self':
      return `${a}.agent_id = :vis_agentId`;
    case 'others':
      return `${a}.agent_id IS DISTINCT FROM :vis_agentId`;
    case 'agents':
      return `${a}.agent_id = ANY(CAST(:vis_agentScopeIds AS uuid[]))`;
    default:
      return assertNever(agentScope);
  }
}

/**
 * The read rule for a webhook subscription: whether the memory row `m` is one the
 * subscription row `s` could read with an API key of the same bindings (agent_scope `all`,
 * any moment). A subscription without a workspace is a user key: the user's personal rows.
 * With one, an agent key: the read alternatives above, with the subscription's agent in
 * place of the caller; `userId` is the SQL of the user both belong to. Used in the statement that writes a change's outbox rows
 * (webhook-outbox.ts), so an event about a memory reaches only subscribers who could read it.
 */
export function subscriberReadCondition(m: string, s: string, userId: string): string {
  // The user as a bound value (`userId`), so each statement stays on one user's rows (and shard).
  const who: Reader = { userId, workspaceId: `${s}.workspace_id`, agentId: `${s}.agent_id` };
  return (
    `(${m}.user_id = ${s}.user_id AND ((${s}.workspace_id IS NULL AND ${m}.workspace_id IS NULL)` +
    ` OR (${s}.workspace_id IS NOT NULL AND ${m}.workspace_id = ${s}.workspace_id AND ${readableByOthersOrOwn(m, who)})))`
  );
}

/**
 * The classes of memory_term_stats (migration 1763700400000): who a counted row is visible to.
 * `shared`: every agent of the workspace (a NULL visibility or a mode whose othersRead is `all`),
 * and every row of a user's personal memory; `private`: its owner only (the other modes);
 * `granted`: one grantee of a `grantees` mode, a class per grant to an agent other than the owner.
 */
export const TERM_CLASS = { shared: 0, private: 1, granted: 2 } as const;

/**
 * The memory_term_stats rows (alias `s`) whose sum is the BM25 statistics of exactly the rows
 * `scope` reads (purpose `read`, current time) that have no expiry: the same tenant, and the
 * classes the read rule and the agent_scope narrowing let through. The rows with an expiry are
 * counted by the search itself, through applyMemoryScope. A class the caller may not read is
 * never summed, so another agent's private rows never move the caller's statistics.
 */
export function termStatsCondition(s: string, scope: MemoryScope): string {
  const { shared, private: own, granted } = TERM_CLASS;
  switch (scope.kind) {
    case 'user':
      return `(${s}.user_id = :vis_userId AND ${s}.workspace_id IS NULL)`;
    case 'workspace': {
      const tenant = `${s}.user_id = :vis_userId AND ${s}.workspace_id = :vis_workspaceId`;
      const readable =
        `(${s}.class = ${shared} OR (${s}.class = ${own} AND ${s}.agent_id = :vis_agentId)` +
        ` OR (${s}.class = ${granted} AND ${s}.grantee_agent_id = :vis_agentId))`;
      let classes: string;
      switch (scope.agentScope.kind) {
        case 'all':
          classes = readable;
          break;
        case 'self':
          classes = `(${s}.agent_id = :vis_agentId AND ${s}.class IN (${shared}, ${own}))`;
          break;
        case 'others':
          classes =
            `((${s}.class = ${shared} AND ${s}.agent_id IS DISTINCT FROM :vis_agentId)` +
            ` OR (${s}.class = ${granted} AND ${s}.grantee_agent_id = :vis_agentId))`;
          break;
        case 'agents':
          classes = `(${readable} AND ${s}.agent_id = ANY(CAST(:vis_agentScopeIds AS uuid[])))`;
          break;
        default:
          return assertNever(scope.agentScope);
      }
      return `(${tenant} AND ${classes})`;
    }
    default:
      return assertNever(scope);
  }
}

/**
 * The agent a row of memory_postings is filed for (alias `s`): none (NULL) for a shared row, the
 * owner for a private one, the grantee for a granted one. It keys the postings' reader index
 * (migration 1763700800000), whose expression is this one, written out the same way so that the
 * planner matches the two.
 */
export function postingReader(s: string): string {
  return `COALESCE(${s}.grantee_agent_id, CASE WHEN ${s}.class = ${TERM_CLASS.private} THEN ${s}.agent_id END)`;
}

/**
 * The ranges of the postings' reader index that together hold every row termStatsCondition(s,
 * scope) lets through, as conditions to add to it, one range each; none for a user scope, whose
 * rows are all filed for no one and are read through the (user, lexeme) index.
 *
 * A workspace reader's rows are in two ranges: the shared rows (filed for no one), and the rows
 * filed for the reader itself (its private rows and the rows granted to it). Every agent_scope
 * narrows within them: termStatsCondition admits class 0 (filed for no one), class 1 only with
 * the reader as owner, class 2 only with the reader as grantee. The ranges are disjoint, so a
 * statement that reads each once reads every such row once, and skips the other agents' private
 * and granted rows that a lexeme's range of the (user, workspace, lexeme) index holds besides.
 */
export function postingRanges(s: string, scope: MemoryScope): readonly string[] {
  switch (scope.kind) {
    case 'user':
      return [];
    case 'workspace':
      return [`${postingReader(s)} IS NULL`, `${postingReader(s)} = :vis_agentId`];
    default:
      return assertNever(scope);
  }
}
