import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import type { VisibilityMode } from '../database/visibility';
import { AccessTracker } from './access-tracker';
import { MemoriesRepository } from './memories.repository';
import { toMemoryRecord, type MemoryRecord } from './memory.mapper';

export const DEFAULT_LIST_LIMIT = 20;

/** get, list, expand, delete and visibility changes, dispatched by scope kind. */
@Injectable()
export class MemoriesService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly access: AccessTracker,
  ) {}

  async get(scope: MemoryScope, id: string): Promise<MemoryRecord> {
    const memory = await this.repository.findVisibleById(scope, id);
    if (!memory) throw new DomainError('MEMORY_NOT_FOUND');
    this.access.record(scope, [memory.memory.id]);
    return toMemoryRecord(memory);
  }

  async list(
    scope: MemoryScope,
    query: { limit?: number; offset?: number; sourceSite?: string; episodeId?: string },
  ): Promise<{ memories: MemoryRecord[]; count: number }> {
    const page = { limit: query.limit ?? DEFAULT_LIST_LIMIT, offset: query.offset ?? 0 };
    let rows;
    switch (scope.kind) {
      case 'user':
        rows = await this.repository.listVisible(scope, { ...page, sourceSite: query.sourceSite, episodeId: query.episodeId });
        break;
      case 'workspace':
        // spec 4.2.6: the workspace branch ignores source_site and episode_id
        rows = await this.repository.listVisible(scope, page);
        break;
      default:
        return assertNever(scope);
    }
    const memories = rows.map(toMemoryRecord);
    return { memories, count: memories.length };
  }

  /** The visible memories among `ids`, in the order asked; unknown or invisible ids are left out. */
  async expand(scope: MemoryScope, ids: string[]): Promise<{ memories: MemoryRecord[] }> {
    const unique = [...new Set(ids)];
    const rows = await this.repository.findVisibleByIds(scope, unique);
    const byId = new Map(rows.map((row) => [row.memory.id, row]));
    const ordered = unique.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    this.access.record(
      scope,
      ordered.map((row) => row.memory.id),
    );
    return { memories: ordered.map(toMemoryRecord) };
  }

  /**
   * Soft delete. Workspace scope: 404 when nothing visible matched. User scope: success
   * whether or not a row matched (spec 4.2.7), and never a workspace row.
   */
  async delete(scope: MemoryScope, id: string, actor: Actor): Promise<{ success: true }> {
    const affected = await this.repository.softDelete(scope, id, actor);
    switch (scope.kind) {
      case 'user':
        return { success: true };
      case 'workspace':
        if (affected === 0) throw new DomainError('MEMORY_NOT_FOUND');
        return { success: true };
      default:
        return assertNever(scope);
    }
  }

  async updateVisibility(scope: MemoryScope, id: string, visibility: VisibilityMode, actor: Actor): Promise<MemoryRecord> {
    if (scope.kind !== 'workspace') {
      throw new DomainError('VALIDATION_FAILED', 'workspace_id is required: visibility exists only for workspace memories');
    }
    const changed = await this.repository.updateVisibilityAsOwner(scope, id, visibility, actor);
    if (!changed) {
      const visible = await this.repository.findForWriter(scope, id);
      throw visible
        ? new DomainError('NOT_MEMORY_OWNER', 'Only the owning agent may change visibility')
        : new DomainError('MEMORY_NOT_FOUND');
    }
    const updated = await this.repository.findForWriter(scope, id);
    if (!updated) throw new DomainError('MEMORY_NOT_FOUND');
    return toMemoryRecord(updated);
  }
}
