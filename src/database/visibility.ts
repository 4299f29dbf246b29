import { Brackets, type ObjectLiteral, type SelectQueryBuilder, type UpdateQueryBuilder } from 'typeorm';

import { assertNever } from '../common/errors/domain-error';
import type { AgentScope, MemoryScope } from '../common/scope/memory-scope';

export type ScopableBuilder<T extends ObjectLiteral> = SelectQueryBuilder<T> | UpdateQueryBuilder<T>;

export interface ScopeOptions {
  /** Also match soft-deleted and superseded rows. No read path sets this. */
  includeInactive?: boolean;
  /**
   * Ingest mutations (UPDATE / SUPERSEDE / DELETE decided at ingest): in a workspace, only rows
   * the writer owns or that everyone may see (`workspace`/NULL) — never another agent's
   * private or restricted row, even one shared with the writer by a grant.
   */
  forMutation?: boolean;
}

/**
 * The only place that writes the memory visibility predicate. Every read of memories and
 * every write that targets existing memories goes through here.
 *
 * Contract — adds ONE bracketed condition (AND-ed to whatever the builder has) that keeps
 * exactly the rows `scope` may touch:
 * - user scope: `user_id = :vis_userId AND workspace_id IS NULL` (never a workspace row);
 * - workspace scope: `user_id = :vis_userId AND workspace_id = :vis_workspaceId`, and
 *   - visibility: NULL (legacy) or `workspace` for every agent; `agent_only` only for its
 *     owner (`agent_id = :vis_agentId`); `restricted` for its owner or an agent holding a
 *     grant row (EXISTS on memory_visibility_grants with the same user_id);
 *   - agent scope: `self` = owner is the caller; `others` = owner IS DISTINCT FROM caller;
 *     ids = owner in the list; `all` = nothing more. Agent scope narrows, never widens.
 * - live rows only: `deleted_at IS NULL AND expired_at IS NULL` (unless includeInactive);
 * - with forMutation, in a workspace: additionally `agent_id = :vis_agentId` or visibility
 *   NULL/`workspace` (CONTRACT section 5, mutations at ingest).
 * Caller ids are bound parameters prefixed `vis_` (TypeORM shares one parameter namespace
 * per builder), never text in SQL. Callers must not use `.where()`/`.orWhere()` afterwards:
 * `.where()` would replace this condition and `.orWhere()` would widen it.
 *
 * The spec allows an internal path with no caller agent (no visibility). Atrium has none:
 * ingest de-duplication and mutation run as the writing agent, so the type demands a scope.
 */
export function applyMemoryScope<T extends ObjectLiteral, B extends ScopableBuilder<T>>(
  qb: B,
  alias: string,
  scope: MemoryScope,
  options: ScopeOptions = {},
): B {
  const a = alias;
  const params: Record<string, unknown> = { vis_userId: scope.userId };
  qb.andWhere(
    new Brackets((where) => {
      where.andWhere(`${a}.user_id = :vis_userId`);
      switch (scope.kind) {
        case 'user':
          where.andWhere(`${a}.workspace_id IS NULL`);
          break;
        case 'workspace': {
          params.vis_workspaceId = scope.workspaceId;
          params.vis_agentId = scope.agentId;
          where.andWhere(`${a}.workspace_id = :vis_workspaceId`);
          where.andWhere(
            `(${a}.visibility IS NULL OR ${a}.visibility = 'workspace'` +
              ` OR ${a}.agent_id = :vis_agentId` +
              ` OR (${a}.visibility = 'restricted' AND EXISTS (` +
              `SELECT 1 FROM memory_visibility_grants vis_g WHERE vis_g.user_id = :vis_userId` +
              ` AND vis_g.workspace_id = :vis_workspaceId AND vis_g.grantee_agent_id = :vis_agentId` +
              ` AND vis_g.memory_id = ${a}.id)))`,
          );
          const agentCondition = agentScopeCondition(a, scope.agentScope, params);
          if (agentCondition) where.andWhere(agentCondition);
          if (options.forMutation) {
            where.andWhere(`(${a}.agent_id = :vis_agentId OR ${a}.visibility IS NULL OR ${a}.visibility = 'workspace')`);
          }
          break;
        }
        default:
          assertNever(scope);
      }
      if (!options.includeInactive) {
        where.andWhere(`${a}.deleted_at IS NULL`);
        where.andWhere(`${a}.expired_at IS NULL`);
      }
    }),
  );
  qb.setParameters(params);
  return qb;
}

function agentScopeCondition(a: string, agentScope: AgentScope, params: Record<string, unknown>): string | undefined {
  switch (agentScope.kind) {
    case 'all':
      return undefined;
    case 'self':
      return `${a}.agent_id = :vis_agentId`;
    case 'others':
      return `${a}.agent_id IS DISTINCT FROM :vis_agentId`;
    case 'agents':
      params.vis_agentScopeIds = [...agentScope.agentIds];
      return `${a}.agent_id = ANY(CAST(:vis_agentScopeIds AS uuid[]))`;
    default:
      return assertNever(agentScope);
  }
}
