import { Injectable } from '@nestjs/common';

import type { Actor } from '../common/identity/principal';
import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
import { MemoryAccess, type NewMemory } from '../database/access/memory-access';
import type { MemoryRecordRow } from '../database/access/record-statement';
import type { VisibilityMode } from '../database/access/visibility';
import { scopeColumns } from '../database/audit/audit-log';
import type { EpisodeEntity } from '../database/entities/episode.entity';
import { toVectorLiteral } from '../database/vector';

export type { NewMemory };

/**
 * Plain reads and writes of memories. Every statement comes from MemoryAccess scoped for a
 * purpose (database/access/visibility.ts), so visibility is decided in SQL, in the statement that
 * reads or writes; nothing is filtered in JavaScript afterwards. Retrieval plans are in
 * vector-search.ts, access counting in access-tracker.ts.
 */
@Injectable()
export class MemoriesRepository {
  constructor(private readonly access: MemoryAccess) {}

  // The record reads are shaped statements: MemoryAccess renders each plan's SQL once per
  // scope shape and binds the values (statement-plans.ts).

  async findVisibleById(scope: MemoryScope, id: string): Promise<MemoryRecordRow | null> {
    const rows = await this.access.records({ statement: 'record-by-id', scope, purpose: 'read', id });
    return rows[0] ?? null;
  }

  /** The row as its writer sees it (agent_scope ignored): tells 403 from 404 on owner routes. */
  async findForWriter(scope: MemoryScope, id: string): Promise<MemoryRecordRow | null> {
    const rows = await this.access.records({ statement: 'record-by-id', scope, purpose: 'writer-view', id });
    return rows[0] ?? null;
  }

  async findVisibleByIds(scope: MemoryScope, ids: readonly string[]): Promise<MemoryRecordRow[]> {
    if (ids.length === 0) return [];
    return this.access.records({ statement: 'records-by-ids', scope, ids });
  }

  /** Newest first; source_site and episode_id narrow user scopes only (spec 4.2.6). */
  async listVisible(
    scope: MemoryScope,
    page: { limit: number; offset: number; sourceSite?: string; episodeId?: string },
  ): Promise<MemoryRecordRow[]> {
    const filters = scope.kind === 'user' ? { sourceSite: page.sourceSite, episodeId: page.episodeId } : {};
    return this.access.records({ statement: 'record-page', scope, filters, limit: page.limit, offset: page.offset });
  }

  /**
   * Soft delete, scoped in the same statement, audited in the same transaction, which also
   * removes the memory's access counts. Returns the rows deleted (0 or 1).
   */
  async softDelete(scope: MemoryScope, id: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx.updateMemories(scope, 'read', { deletedAt: () => 'now()', updatedAt: () => 'now()' });
      const affected = await qb.andWhere('memories.id = :id', { id }).execute();
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
      const affected = await tx
        .updateMemories(scope, 'owner', { visibility, updatedAt: () => 'now()' })
        .andWhere('memories.id = :id', { id })
        .execute();
      if (affected === 0) return false;
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
      const qb = tx.updateMemories(
        scope,
        'ingest-mutation',
        {
          content: change.content,
          embedding: () => 'CAST(:newEmbedding AS vector)',
          embeddedBy: change.embeddedBy,
          importance: change.importance,
          trustScore: change.trustScore,
          updatedAt: () => 'now()',
        },
        { newEmbedding: toVectorLiteral(change.embedding) },
      );
      const affected = await qb.andWhere('memories.id = :id', { id }).execute();
      if (affected > 0) await tx.audit(actor, { action: 'memory.updated', ...scopeColumns(scope), targetId: id });
      return affected;
    });
  }

  /** Ingest SUPERSEDE: the old row stops being returned (expired_at) and points to its successor. */
  async expireForIngest(scope: MemoryScope, id: string, supersededBy: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const qb = tx.updateMemories(scope, 'ingest-mutation', { expiredAt: () => 'now()', supersededBy, updatedAt: () => 'now()' });
      const affected = await qb.andWhere('memories.id = :id', { id }).execute();
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
      const affected = await qb.andWhere('memories.id = :id', { id }).execute();
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
