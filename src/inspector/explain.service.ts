import { Injectable } from '@nestjs/common';

import { DomainError } from '../common/errors/domain-error';
import type { WorkspaceScope } from '../common/scope/memory-scope';
import type { VisibilityExplanationWire, WireHiddenBecause, WireVisibility, WireVisibilityRule } from '../contract/wire-types';
import { MemoryAccess, type VisibilityExplanationRow } from '../database/access/memory-access';
import type { ExplainQueryDto } from './explain.dto';

/**
 * "Why can agent X see this memory?" for the admin. MemoryAccess.explainVisibility evaluates
 * the read predicate and each of its alternatives on the row in SQL; this only names the
 * answer: the first alternative that holds when the row is visible (owner before workspace
 * before grant), and when it is not, the first fact of the row that keeps it out.
 */
@Injectable()
export class VisibilityExplainer {
  constructor(private readonly access: MemoryAccess) {}

  async explain(q: ExplainQueryDto): Promise<VisibilityExplanationWire> {
    const scope: WorkspaceScope = {
      kind: 'workspace',
      userId: q.user_id,
      workspaceId: q.workspace_id,
      agentId: q.agent_id,
      agentScope: { kind: 'all' },
    };
    const row = await this.access.explainVisibility(scope, q.memory_id);
    if (!row) throw new DomainError('MEMORY_NOT_FOUND');
    return {
      memory_id: q.memory_id,
      user_id: q.user_id,
      workspace_id: q.workspace_id,
      agent_id: q.agent_id,
      visible: row.visible,
      rule: ruleOf(row),
      hidden_because: row.visible ? null : hiddenBecause(row, q.workspace_id),
      conditions: { owner: row.owner, workspace: row.workspace, grant: row.grant },
      memory: {
        workspace_id: row.workspace_id,
        agent_id: row.agent_id,
        visibility: row.visibility as WireVisibility | null,
        deleted: row.deleted,
        superseded: row.superseded,
        expired: row.expired,
      },
    };
  }
}

function ruleOf(row: VisibilityExplanationRow): WireVisibilityRule {
  if (!row.visible) return 'not_visible';
  if (row.owner) return 'owner';
  if (row.workspace) return 'workspace';
  if (row.grant) return 'grant';
  // The predicate let the row through by none of its named alternatives: readRuleConditions
  // and applyMemoryScope disagree, which the e2e suite would catch. Never claim a rule then.
  throw new Error('explainVisibility: a visible row matched no read rule');
}

function hiddenBecause(row: VisibilityExplanationRow, workspaceId: string): WireHiddenBecause {
  if (row.deleted) return 'deleted';
  if (row.superseded) return 'superseded';
  if (row.expired) return 'expired';
  if (row.workspace_id === null) return 'personal_memory';
  if (row.workspace_id !== workspaceId) return 'other_workspace';
  if (row.visibility === 'agent_only') return 'agent_only';
  if (row.visibility === 'restricted') return 'restricted_without_grant';
  return 'other';
}
