import { Injectable } from '@nestjs/common';

import { DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { WorkspaceScope } from '../common/scope/memory-scope';
import { MemoriesRepository } from '../memories/memories.repository';
import { GrantsRepository } from './grants.repository';

/** Grants on restricted memories, managed by the owning agent only. */
@Injectable()
export class GrantsService {
  constructor(
    private readonly grants: GrantsRepository,
    private readonly memories: MemoriesRepository,
  ) {}

  /** 404 when the caller cannot see the memory, 403 when it sees but does not own it. */
  private async notOwner(scope: WorkspaceScope, memoryId: string): Promise<never> {
    const visible = await this.memories.findForWriter(scope, memoryId);
    throw new DomainError(visible ? 'NOT_GRANT_OWNER' : 'MEMORY_NOT_FOUND');
  }

  async grant(
    scope: WorkspaceScope,
    memoryId: string,
    granteeAgentId: string,
    actor: Actor,
  ): Promise<{ created: boolean; body: { memory_id: string; grantee_agent_id: string; created_at: string } }> {
    const result = await this.grants.grant(scope, memoryId, granteeAgentId, actor);
    if (result === 'not_owner_or_missing') return this.notOwner(scope, memoryId);
    if (result === 'not_restricted') {
      throw new DomainError('GRANT_NEEDS_RESTRICTED');
    }
    return {
      created: result.created,
      body: { memory_id: memoryId, grantee_agent_id: granteeAgentId, created_at: new Date(result.createdAt).toISOString() },
    };
  }

  async list(scope: WorkspaceScope, memoryId: string) {
    const rows = await this.grants.list(scope, memoryId);
    if (!rows) return this.notOwner(scope, memoryId);
    const grants = rows.map((r) => ({ grantee_agent_id: r.grantee_agent_id, created_at: new Date(r.created_at).toISOString() }));
    return { grants, count: grants.length };
  }

  async revoke(scope: WorkspaceScope, memoryId: string, granteeAgentId: string, actor: Actor): Promise<{ success: true }> {
    const result = await this.grants.revoke(scope, memoryId, granteeAgentId, actor);
    if (result === 'not_owner_or_missing') return this.notOwner(scope, memoryId);
    if (result === 'no_grant') throw new DomainError('GRANT_NOT_FOUND');
    return { success: true };
  }
}
