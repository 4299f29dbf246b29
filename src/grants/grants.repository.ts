import { Injectable } from '@nestjs/common';

import type { Actor } from '../common/identity/principal';
import type { WorkspaceScope } from '../common/scope/memory-scope';
import { MemoryAccess, type GrantRow } from '../database/access/memory-access';
import { scopeColumns } from '../database/audit/audit-log';

export type { GrantRow };

/**
 * Visibility grants. Every statement is gated in SQL by the owner predicate on the memory
 * (MemoryAccess), so only the owning agent, seeing the memory in its own scope, can create,
 * list or revoke grants; no check-then-write.
 */
@Injectable()
export class GrantsRepository {
  constructor(private readonly access: MemoryAccess) {}

  /**
   * Insert the grant if the caller owns the (restricted) memory. Returns the grant and whether
   * it was new, or why nothing was granted.
   */
  async grant(
    scope: WorkspaceScope,
    memoryId: string,
    granteeAgentId: string,
    actor: Actor,
  ): Promise<{ created: boolean; createdAt: Date } | 'not_owner_or_missing' | 'not_restricted'> {
    const createdAt = await this.access.transaction(async (tx) => {
      const created = await tx.insertGrant(scope, memoryId, granteeAgentId);
      if (created)
        await tx.audit(actor, {
          action: 'grant.created',
          ...scopeColumns(scope),
          targetId: memoryId,
          detail: { grantee_agent_id: granteeAgentId },
        });
      return created;
    });
    if (createdAt) return { created: true, createdAt };
    // Nothing inserted: already granted, not restricted, or not the caller's memory.
    const existing = await this.access.grantCreatedAt(scope, memoryId, granteeAgentId);
    if (existing) return { created: false, createdAt: existing };
    return (await this.access.ownedVisibility(scope, memoryId)) ? 'not_restricted' : 'not_owner_or_missing';
  }

  /** Grants on the memory, or null when the caller does not own it. */
  async list(scope: WorkspaceScope, memoryId: string): Promise<GrantRow[] | null> {
    return this.access.listGrants(scope, memoryId);
  }

  /** Remove a grant the caller (owner) made: 'revoked', 'no_grant', or 'not_owner_or_missing'. */
  async revoke(
    scope: WorkspaceScope,
    memoryId: string,
    granteeAgentId: string,
    actor: Actor,
  ): Promise<'revoked' | 'no_grant' | 'not_owner_or_missing'> {
    const removed = await this.access.transaction(async (tx) => {
      const n = await tx.deleteGrant(scope, memoryId, granteeAgentId);
      if (n > 0)
        await tx.audit(actor, {
          action: 'grant.revoked',
          ...scopeColumns(scope),
          targetId: memoryId,
          detail: { grantee_agent_id: granteeAgentId },
        });
      return n;
    });
    if (removed > 0) return 'revoked';
    return (await this.access.ownedVisibility(scope, memoryId)) ? 'no_grant' : 'not_owner_or_missing';
  }
}
