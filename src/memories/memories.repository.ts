import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

import type { Actor } from '../common/identity/principal';
import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
import { MemoryAccess, type MemoryVersionRow, type NewMemory, type VersionChange } from '../database/access/memory-access';
import type { MemoryRecordRow } from '../database/access/record-statement';
import { CURRENT, type ReadTime, type VisibilityMode } from '../database/access/visibility';
import { scopeColumns } from '../database/audit/audit-log';
import type { EpisodeEntity } from '../database/entities/episode.entity';
import type { MemoryEntity } from '../database/entities/memory.entity';
import { toVectorLiteral } from '../database/vector';

export type { NewMemory, MemoryVersionRow };

/** Live rows, expired ones included: owner changes, deletes and include_expired reads. */
const WITH_EXPIRED: ReadTime = Object.freeze({ kind: 'current-with-expired' });

/** What one import batch writes (ImportService), in one transaction. */
export interface ImportBatch {
  rows: NewMemory[];
  grants: Array<{ scope: WorkspaceScope; memoryId: string; granteeAgentId: string }>;
  overwrites: Array<{ scope: MemoryScope; row: NewMemory }>;
}

/** What an owner's PATCH changes (only the fields given). */
export interface OwnerChange {
  visibility?: VisibilityMode;
  content?: { text: string; embedding: readonly number[]; embeddedBy: string; trustScore: number };
  metadata?: Record<string, unknown>;
  /** null clears the expiry. */
  expiresAt?: Date | null;
}

/** The field names a change touches (the audit event names them, never their content). */
export function changedFields(change: OwnerChange): string[] {
  const fields: string[] = [];
  if (change.content !== undefined) fields.push('content');
  if (change.metadata !== undefined) fields.push('metadata');
  if (change.visibility !== undefined) fields.push('visibility');
  if (change.expiresAt !== undefined) fields.push('expires_at');
  return fields;
}

/** One version per change: an edit of text or metadata, else the visibility, else the expiry. */
function versionChangeOf(change: OwnerChange): VersionChange {
  if (change.content !== undefined || change.metadata !== undefined) return 'edited';
  if (change.visibility !== undefined) return 'visibility_changed';
  return 'expiry_changed';
}

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
  // scope shape and read time, and binds the values (database/access/statement-plans.ts).

  async findVisibleById(scope: MemoryScope, id: string, includeExpired = false): Promise<MemoryRecordRow | null> {
    const time = includeExpired ? WITH_EXPIRED : CURRENT;
    const rows = await this.access.records({ statement: 'record-by-id', scope, purpose: 'read', id, time });
    return rows[0] ?? null;
  }

  /**
   * The row as its writer sees it (agent_scope ignored, expired rows included): tells 403 from
   * 404 on owner routes.
   */
  async findForWriter(scope: MemoryScope, id: string, time: ReadTime = WITH_EXPIRED): Promise<MemoryRecordRow | null> {
    const rows = await this.access.records({ statement: 'record-by-id', scope, purpose: 'writer-view', id, time });
    return rows[0] ?? null;
  }

  async findVisibleByIds(scope: MemoryScope, ids: readonly string[]): Promise<MemoryRecordRow[]> {
    if (ids.length === 0) return [];
    return this.access.records({ statement: 'records-by-ids', scope, ids });
  }

  /** Newest first; source_site and episode_id narrow user scopes only (spec 4.2.6). */
  async listVisible(
    scope: MemoryScope,
    page: { limit: number; offset: number; sourceSite?: string; episodeId?: string; includeExpired?: boolean },
  ): Promise<MemoryRecordRow[]> {
    const filters = scope.kind === 'user' ? { sourceSite: page.sourceSite, episodeId: page.episodeId } : {};
    const time = page.includeExpired ? WITH_EXPIRED : CURRENT;
    return this.access.records({ statement: 'record-page', scope, filters, limit: page.limit, offset: page.offset, time });
  }

  /**
   * Soft delete, scoped in the same statement, versioned and audited in the same transaction,
   * which also removes the memory's access counts. Returns the rows deleted (0 or 1). A delete
   * is a change, so it takes the `ingest-mutation` purpose: the caller's own rows, and the rows
   * open to the whole workspace (`workspace` or NULL); a grant lets an agent read a restricted
   * memory, never delete it (issue 20, finding 8). An expired memory is not deleted here (it is
   * gone for readers already, and purged later); its owner can clear the expiry first.
   */
  async softDelete(scope: MemoryScope, id: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const changed = await tx.changeMemory(scope, 'ingest-mutation', id, { deletedAt: () => 'now()' }, 'deleted', actor);
      if (changed === null) return 0;
      await tx.dropAccessCounts(scope.userId, id);
      await tx.audit(actor, { action: 'memory.deleted', ...scopeColumns(scope), targetId: id, detail: { via: 'delete' } });
      return 1;
    });
  }

  /**
   * The owner's change of a memory (PATCH): its visibility, text (with the new vector and trust
   * score), metadata and expiry, as one new version, in one scoped statement (the `owner`
   * purpose: the owning agent in a workspace, the user in user scope; expired memories
   * included, so an expiry can be moved back). Leaving `restricted` drops the memory's grants
   * in the same transaction, so they cannot silently apply again later. False when the caller
   * does not own a live memory with that id.
   */
  async changeAsOwner(scope: MemoryScope, id: string, change: OwnerChange, actor: Actor): Promise<boolean> {
    return this.access.transaction(async (tx) => {
      const values: QueryDeepPartialEntity<MemoryEntity> = {};
      const parameters: Record<string, unknown> = {};
      if (change.visibility !== undefined) values.visibility = change.visibility;
      if (change.content !== undefined) {
        values.content = change.content.text;
        values.embedding = () => 'CAST(:newEmbedding AS vector)';
        values.embeddedBy = change.content.embeddedBy;
        values.trustScore = change.content.trustScore;
        parameters.newEmbedding = toVectorLiteral(change.content.embedding);
      }
      if (change.metadata !== undefined) values.metadata = change.metadata as QueryDeepPartialEntity<MemoryEntity>['metadata'];
      if (change.expiresAt !== undefined) values.expiresAt = change.expiresAt;
      const kind = versionChangeOf(change);
      const changed = await tx.changeMemory(scope, 'owner', id, values, kind, actor, { time: WITH_EXPIRED, parameters });
      if (changed === null) return false;
      const { version } = changed;
      if (change.visibility !== undefined && change.visibility !== 'restricted' && scope.kind === 'workspace')
        await tx.dropGrants(scope, id);
      const fields = changedFields(change);
      await tx.audit(
        actor,
        fields.length === 1 && fields[0] === 'visibility'
          ? { action: 'memory.visibility_changed', ...scopeColumns(scope), targetId: id, detail: { visibility: change.visibility ?? null } }
          : { action: 'memory.updated', ...scopeColumns(scope), targetId: id, detail: { fields, version, via: 'patch' } },
      );
      return true;
    });
  }

  /** Ingest UPDATE: new content and vector for a row the writer may mutate (a new version). */
  async updateContentForIngest(
    scope: MemoryScope,
    id: string,
    change: { content: string; embedding: readonly number[]; embeddedBy: string; importance: number; trustScore: number },
    actor: Actor,
  ): Promise<number> {
    return this.access.transaction(async (tx) => {
      const changed = await tx.changeMemory(
        scope,
        'ingest-mutation',
        id,
        {
          content: change.content,
          embedding: () => 'CAST(:newEmbedding AS vector)',
          embeddedBy: change.embeddedBy,
          importance: change.importance,
          trustScore: change.trustScore,
        },
        'edited',
        actor,
        { parameters: { newEmbedding: toVectorLiteral(change.embedding) } },
      );
      if (changed === null) return 0;
      await tx.audit(actor, {
        action: 'memory.updated',
        ...scopeColumns(scope),
        targetId: id,
        detail: { fields: ['content'], version: changed.version, via: 'ingest', owner_agent_id: changed.ownerAgentId },
      });
      return 1;
    });
  }

  /**
   * Ingest SUPERSEDE: the old row stops being current (superseded_at), points to its successor,
   * and is valid until the successor's creation (valid time: CONTRACT section 12).
   */
  async supersedeForIngest(scope: MemoryScope, id: string, successor: { id: string; createdAt: Date }, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const changed = await tx.changeMemory(
        scope,
        'ingest-mutation',
        id,
        { supersededAt: () => 'now()', supersededBy: successor.id, validUntil: successor.createdAt },
        'superseded',
        actor,
      );
      if (changed === null) return 0;
      await tx.dropAccessCounts(scope.userId, id);
      await tx.audit(actor, {
        action: 'memory.superseded',
        ...scopeColumns(scope),
        targetId: id,
        detail: { superseded_by: successor.id, owner_agent_id: changed.ownerAgentId },
      });
      return 1;
    });
  }

  /** Ingest DELETE: soft delete, under the ingest mutation rule (a new version). */
  async deleteForIngest(scope: MemoryScope, id: string, actor: Actor): Promise<number> {
    return this.access.transaction(async (tx) => {
      const changed = await tx.changeMemory(scope, 'ingest-mutation', id, { deletedAt: () => 'now()' }, 'deleted', actor);
      if (changed === null) return 0;
      await tx.dropAccessCounts(scope.userId, id);
      await tx.audit(actor, {
        action: 'memory.deleted',
        ...scopeColumns(scope),
        targetId: id,
        detail: { via: 'ingest', owner_agent_id: changed.ownerAgentId },
      });
      return 1;
    });
  }

  /** A memory's versions, oldest first; null when `scope` cannot read it (CONTRACT section 12). */
  async history(scope: MemoryScope, id: string): Promise<MemoryVersionRow[] | null> {
    return this.access.memoryVersions(scope, id);
  }

  /** Which of `ids` are this user's memories' (live or not): import's conflict check. */
  async existingIds(userId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.access.existingMemoryIds(userId, ids);
  }

  /**
   * One import batch in ONE transaction: the new rows (unless their id is taken by another
   * user's memory) with their `memory.stored` events and their grants (given by the row's
   * owner), then the overwrites of rows the owner may change (each a new version,
   * `memory.updated`). Returns the ids of the rows not written: new rows whose id was taken,
   * and overwrites that matched no row the scope owns.
   */
  async importBatch(batch: ImportBatch, actor: Actor): Promise<Set<string>> {
    return this.access.transaction(async (tx) => {
      const inserted = await tx.insertMemoriesIfAbsent(batch.rows, actor);
      const stored = batch.rows.filter((row) => inserted.has(row.id));
      await tx.audit(
        actor,
        ...stored.map((row) => ({
          action: 'memory.stored' as const,
          userId: row.userId,
          workspaceId: row.workspaceId,
          agentId: row.agentId,
          targetId: row.id,
          detail: { visibility: row.visibility, memory_type: row.memoryType, via: 'import' },
        })),
      );
      for (const grant of batch.grants)
        if (inserted.has(grant.memoryId)) await tx.insertGrant(grant.scope, grant.memoryId, grant.granteeAgentId);
      const refused = new Set(batch.rows.filter((row) => !inserted.has(row.id)).map((row) => row.id));
      for (const change of batch.overwrites) {
        const row = change.row;
        const changed = await tx.changeMemory(
          change.scope,
          'owner',
          row.id,
          {
            content: row.content,
            memoryType: row.memoryType,
            importance: row.importance,
            metadata: row.metadata as QueryDeepPartialEntity<MemoryEntity>['metadata'],
            expiresAt: row.expiresAt,
            trustScore: row.trustScore,
            embedding: () => 'CAST(:newEmbedding AS vector)',
            embeddedBy: row.embeddedBy,
          },
          'edited',
          actor,
          { time: WITH_EXPIRED, parameters: { newEmbedding: toVectorLiteral(row.embedding) } },
        );
        if (changed === null) {
          refused.add(row.id);
          continue;
        }
        await tx.audit(actor, {
          action: 'memory.updated',
          ...scopeColumns(change.scope),
          targetId: row.id,
          detail: { fields: ['content', 'metadata', 'expires_at'], version: changed.version, via: 'import' },
        });
      }
      return refused;
    });
  }

  /**
   * New rows and one `memory.stored` event each, in one statement (both or neither); with
   * `episode`, the ingest call they came from in the same statement (or alone, without rows).
   */
  async insertMemories(rows: NewMemory[], actor: Actor, episode?: EpisodeEntity): Promise<void> {
    if (rows.length === 0 && !episode) return;
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
      episode,
    );
  }
}
