import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';

import type { Actor } from '../common/identity/principal';
import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
import { MemoryAccess, type NewMemory } from '../database/access/memory-access';
import type { MemoryRecordRow } from '../database/access/record-statement';
import { scopeColumns } from '../database/audit/audit-log';
import type { EpisodeEntity } from '../database/entities/episode.entity';
import type { MemoryEntity } from '../database/entities/memory.entity';
import { toVectorLiteral } from '../database/vector';
import type { VisibilityMode } from '../database/visibility';

export type { NewMemory };

/**
 * Plain reads and writes of memories. Every statement comes from MemoryAccess scoped for a
 * purpose (database/visibility.ts), so visibility is decided in SQL, in the statement that
 * reads or writes; nothing is filtered in JavaScript afterwards. Retrieval plans are in
 * vector-search.ts, access counting in access-tracker.ts.
 */
@Injectable()
export class MemoriesRepository {
  constructor(private readonly access: MemoryAccess) {}

  // The record reads below are shaped statements (MemoryAccess.records): their SQL is rendered
  // once per scope shape and key, so the key names every condition `narrow` adds.

  async findVisibleById(scope: MemoryScope, id: string): Promise<MemoryRecordRow | null> {
    const rows = await this.access.records(scope, 'read', 'by-id', (qb) => qb.andWhere('m.id = :id'), { id });
    return rows[0] ?? null;
  }

  /** The row as its writer sees it (agent_scope ignored): tells 403 from 404 on owner routes. */
  async findForWriter(scope: MemoryScope, id: string): Promise<MemoryRecordRow | null> {
    const rows = await this.access.records(scope, 'writer-view', 'by-id', (qb) => qb.andWhere('m.id = :id'), { id });
    return rows[0] ?? null;
  }

  async findVisibleByIds(scope: MemoryScope, ids: readonly string[]): Promise<MemoryRecordRow[]> {
    if (ids.length === 0) return [];
    return this.access.records(scope, 'read', 'by-ids', (qb) => qb.andWhere('m.id = ANY(CAST(:ids AS uuid[]))'), { ids: [...ids] });
  }

  /** Newest first; source_site and episode_id narrow user scopes only (spec 4.2.6). */
  async listVisible(
    scope: MemoryScope,
    page: { limit: number; offset: number; sourceSite?: string; episodeId?: string },
  ): Promise<MemoryRecordRow[]> {
    const filters: Record<string, string> = {};
    if (scope.kind === 'user') {
      if (page.sourceSite !== undefined) filters.sourceSite = page.sourceSite;
      if (page.episodeId !== undefined) filters.episodeId = page.episodeId;
    }
    const key = `list|${'sourceSite' in filters}|${'episodeId' in filters}`;
    const narrow = (qb: SelectQueryBuilder<MemoryEntity>) => {
      if ('sourceSite' in filters) qb.andWhere('m.source_site = :sourceSite');
      if ('episodeId' in filters) qb.andWhere('m.episode_id = :episodeId');
      return qb.orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC');
    };
    return this.access.records(scope, 'read', key, narrow, filters, { limit: page.limit, offset: page.offset });
  }

  /**
   * Soft delete, scoped in the same statement, audited in the same transaction, which also
   * removes the memory's access counts. Returns the rows deleted (0 or 1).
   */
  async softDelete(scope: MemoryScope, id: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx.updateMemories(scope, 'read', { deletedAt: () => 'now()', updatedAt: () => 'now()' });
      const affected = (await qb.andWhere('memories.id = :id', { id }).execute()).affected ?? 0;
      if (affected > 0) {
        await tx.dropAccessCounts(scope.userId, id);
        await tx.audit(actor, { action: 'memory.deleted', ...scopeColumns(scope), targetId: id, detail: { via: 'delete' } });
      }
      return affected;
    });
  }

  /**
   * Change visibility, only by the owning agent, in one scoped statement. Leaving
   * `restricted` drops the memory's grants in the same transaction, so they cannot silently
   * apply again later.
   */
  async updateVisibilityAsOwner(scope: WorkspaceScope, id: string, visibility: VisibilityMode, actor: Actor): Promise<boolean> {
    return this.access.transaction(async (tx) => {
      const result = await tx
        .updateMemories(scope, 'owner', { visibility, updatedAt: () => 'now()' })
        .andWhere('memories.id = :id', { id })
        .execute();
      if (!result.affected) return false;
      if (visibility !== 'restricted') await tx.dropGrants(scope, id);
      await tx.audit(actor, { action: 'memory.visibility_changed', ...scopeColumns(scope), targetId: id, detail: { visibility } });
      return true;
    });
  }

  /** Ingest UPDATE: new content and vector for a row the writer may mutate. */
  async updateContentForIngest(
    scope: MemoryScope,
    id: string,
    change: { content: string; embedding: readonly number[]; embeddedBy: string; importance: number; trustScore: number },
    actor: Actor,
  ): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx
        .updateMemories(scope, 'ingest-mutation', {
          content: change.content,
          embedding: () => 'CAST(:newEmbedding AS vector)',
          embeddedBy: change.embeddedBy,
          importance: change.importance,
          trustScore: change.trustScore,
          updatedAt: () => 'now()',
        })
        .setParameter('newEmbedding', toVectorLiteral(change.embedding));
      const affected = (await qb.andWhere('memories.id = :id', { id }).execute()).affected ?? 0;
      if (affected > 0) await tx.audit(actor, { action: 'memory.updated', ...scopeColumns(scope), targetId: id });
      return affected;
    });
  }

  /** Ingest SUPERSEDE: the old row stops being returned (expired_at) and points to its successor. */
  async expireForIngest(scope: MemoryScope, id: string, supersededBy: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx.updateMemories(scope, 'ingest-mutation', { expiredAt: () => 'now()', supersededBy, updatedAt: () => 'now()' });
      const affected = (await qb.andWhere('memories.id = :id', { id }).execute()).affected ?? 0;
      if (affected > 0) {
        await tx.dropAccessCounts(scope.userId, id);
        await tx.audit(actor, {
          action: 'memory.superseded',
          ...scopeColumns(scope),
          targetId: id,
          detail: { superseded_by: supersededBy },
        });
      }
      return affected;
    });
  }

  /** Ingest DELETE: soft delete, under the ingest mutation rule. */
  async deleteForIngest(scope: MemoryScope, id: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx.updateMemories(scope, 'ingest-mutation', { deletedAt: () => 'now()', updatedAt: () => 'now()' });
      const affected = (await qb.andWhere('memories.id = :id', { id }).execute()).affected ?? 0;
      if (affected > 0) {
        await tx.dropAccessCounts(scope.userId, id);
        await tx.audit(actor, { action: 'memory.deleted', ...scopeColumns(scope), targetId: id, detail: { via: 'ingest' } });
      }
      return affected;
    });
  }

  async insertEpisode(episode: EpisodeEntity): Promise<void> {
    await this.access.insertEpisode(episode);
  }

  /** New rows and one `memory.stored` event each, in one statement (both or neither). */
  async insertMemories(rows: NewMemory[], actor: Actor): Promise<void> {
    if (rows.length === 0) return;
    await this.access.insertMemoriesAudited(
      rows,
      actor,
      rows.map((row) => ({
        action: 'memory.stored' as const,
        userId: row.userId,
        workspaceId: row.workspaceId,
        agentId: row.agentId,
        targetId: row.id,
        detail: { visibility: row.visibility, memory_type: row.memoryType, episode_id: row.episodeId },
      })),
    );
  }
}
