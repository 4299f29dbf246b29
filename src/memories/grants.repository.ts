import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

import type { WorkspaceScope } from '../common/scope/memory-scope';
import { applyMemoryScope } from '../database/visibility';
import { MemoryEntity } from './memory.entity';

export interface GrantRow {
  grantee_agent_id: string;
  created_at: Date;
}

/**
 * Visibility grants. Every statement joins the memory through applyMemoryScope with the
 * owner condition, so only the owning agent, seeing the memory in its own scope, can create,
 * list or revoke grants; no check-then-write.
 */
@Injectable()
export class GrantsRepository {
  constructor(
    @InjectRepository(MemoryEntity) private readonly memories: Repository<MemoryEntity>,
    private readonly dataSource: DataSource,
  ) {}

  /** The owner's view of the memory: the scoped row when the caller owns it. */
  private ownedMemory(scope: WorkspaceScope, memoryId: string) {
    const ownerScope: WorkspaceScope = { ...scope, agentScope: { kind: 'all' } };
    return applyMemoryScope(this.memories.createQueryBuilder('m'), 'm', ownerScope)
      .andWhere('m.id = :memoryId', { memoryId })
      .andWhere('m.agent_id = :ownerId', { ownerId: scope.agentId });
  }

  /**
   * Insert the grant if the caller owns the (restricted) memory. Returns the grant and whether
   * it was new, or null when the caller does not own a visible restricted memory with that id.
   */
  async grant(
    scope: WorkspaceScope,
    memoryId: string,
    granteeAgentId: string,
  ): Promise<{ created: boolean; createdAt: Date } | 'not_owner_or_missing' | 'not_restricted'> {
    const owned = this.ownedMemory(scope, memoryId)
      .select('m.id', 'memory_id')
      .addSelect('m.user_id', 'user_id')
      .addSelect('m.workspace_id', 'workspace_id')
      .addSelect('CAST(:grantee AS uuid)', 'grantee_agent_id')
      .addSelect('m.agent_id', 'granted_by_agent_id')
      .andWhere("m.visibility = 'restricted'")
      .setParameter('grantee', granteeAgentId);
    const [selectSql, params] = owned.getQueryAndParameters();
    const inserted: { created_at: Date }[] = await this.dataSource.query(
      `INSERT INTO memory_visibility_grants (memory_id, user_id, workspace_id, grantee_agent_id, granted_by_agent_id)
       ${selectSql}
       ON CONFLICT (memory_id, grantee_agent_id) DO NOTHING
       RETURNING created_at`,
      params,
    );
    if (inserted.length > 0) return { created: true, createdAt: inserted[0].created_at };

    // Nothing inserted: already granted, not restricted, or not the caller's memory.
    const existing = await this.ownedMemory(scope, memoryId)
      .select('m.visibility', 'visibility')
      .addSelect(
        '(SELECT g.created_at FROM memory_visibility_grants g WHERE g.memory_id = m.id AND g.user_id = m.user_id AND g.grantee_agent_id = :grantee)',
        'created_at',
      )
      .setParameter('grantee', granteeAgentId)
      .getRawOne<{ visibility: string | null; created_at: Date | null }>();
    if (!existing) return 'not_owner_or_missing';
    if (existing.created_at) return { created: false, createdAt: existing.created_at };
    return 'not_restricted';
  }

  /** Grants on the memory, or null when the caller does not own it. */
  async list(scope: WorkspaceScope, memoryId: string): Promise<GrantRow[] | null> {
    const owned = await this.ownedMemory(scope, memoryId).select('m.id', 'id').getRawOne();
    if (!owned) return null;
    return this.dataSource.query(
      `SELECT grantee_agent_id, created_at FROM memory_visibility_grants
        WHERE user_id = $1 AND memory_id = $2 ORDER BY created_at, grantee_agent_id`,
      [scope.userId, memoryId],
    );
  }

  /** Remove a grant the caller (owner) made: 'revoked', 'no_grant', or 'not_owner_or_missing'. */
  async revoke(scope: WorkspaceScope, memoryId: string, granteeAgentId: string): Promise<'revoked' | 'no_grant' | 'not_owner_or_missing'> {
    const owned = this.ownedMemory(scope, memoryId).select('m.id');
    const [ownedSql, params] = owned.getQueryAndParameters();
    const next = params.length + 1;
    // (A CTE so the result is a plain row: TypeORM returns [rows, count] for a bare DELETE.)
    const [{ n }]: { n: number }[] = await this.dataSource.query(
      `WITH deleted AS (
         DELETE FROM memory_visibility_grants g
          WHERE g.memory_id IN (${ownedSql}) AND g.grantee_agent_id = $${next}
          RETURNING 1)
       SELECT count(*)::int AS n FROM deleted`,
      [...params, granteeAgentId],
    );
    if (n > 0) return 'revoked';
    const stillOwned = await this.ownedMemory(scope, memoryId).select('m.id', 'id').getRawOne();
    return stillOwned ? 'no_grant' : 'not_owner_or_missing';
  }
}
