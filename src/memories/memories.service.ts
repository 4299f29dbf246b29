import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { memorySpan } from '../common/telemetry/tracing';
import { CURRENT, type VisibilityMode } from '../database/access/visibility';
import { EmbeddingService } from '../embeddings/embedding.service';
import { WriteGateService } from '../lessons/write-gate.service';
import { AccessTracker } from './access-tracker';
import { MemoriesRepository, type OwnerChange } from './memories.repository';
import { toMemoryRecord, toMemoryVersion, type MemoryRecord, type MemoryVersion } from './memory.mapper';

export const DEFAULT_LIST_LIMIT = 20;

/** get, list, expand, delete, the owner's changes and history, dispatched by scope kind. */
@Injectable()
export class MemoriesService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly access: AccessTracker,
    private readonly gate: WriteGateService,
    private readonly embeddings: EmbeddingService,
  ) {}

  async get(scope: MemoryScope, id: string, includeExpired = false): Promise<MemoryRecord> {
    const memory = await this.repository.findVisibleById(scope, id, includeExpired);
    if (!memory) throw new DomainError('MEMORY_NOT_FOUND');
    this.access.record(scope, [memory.memory.id]);
    return toMemoryRecord(memory);
  }

  async list(
    scope: MemoryScope,
    query: { limit?: number; offset?: number; sourceSite?: string; episodeId?: string; includeExpired?: boolean },
  ): Promise<{ memories: MemoryRecord[]; count: number }> {
    const page = { limit: query.limit ?? DEFAULT_LIST_LIMIT, offset: query.offset ?? 0, includeExpired: query.includeExpired ?? false };
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
   * Soft delete, under the ingest mutation rule (own rows, or rows open to the whole workspace).
   * Workspace scope: 403 when the caller sees the memory but may not change it (another agent's
   * restricted memory it holds a grant for), 404 when it does not see it. User scope: success
   * whether or not a row matched (spec 4.2.7), and never a workspace row.
   */
  async delete(scope: MemoryScope, id: string, actor: Actor): Promise<{ success: true }> {
    const deleted = await this.forget(scope, id, actor);
    switch (scope.kind) {
      case 'user':
        return { success: true };
      case 'workspace':
        if (!deleted) {
          const seen = await this.repository.findForWriter(scope, id, CURRENT);
          throw new DomainError(seen ? 'NOT_MEMORY_OWNER' : 'MEMORY_NOT_FOUND');
        }
        return { success: true };
      default:
        return assertNever(scope);
    }
  }

  /** Soft delete in both scopes: whether a visible row was deleted (the MCP `forget` tool says so in user scope too). */
  forget(scope: MemoryScope, id: string, actor: Actor): Promise<boolean> {
    // The `delete_memory` span (REST DELETE and the MCP tool alike).
    return memorySpan(
      'delete_memory',
      scope,
      async (span) => {
        span.setAttribute('gen_ai.memory.record.count', 1);
        return (await this.repository.softDelete(scope, id, actor)) > 0;
      },
      id,
    );
  }

  /**
   * PATCH (CONTRACT section 12): the owner changes visibility, content, metadata or expiry, as
   * one new version. New content passes the whole-input write gate first (blocked: 422, an
   * injection_blocked lesson, nothing changed), then is embedded; its trust score is the gate's.
   */
  update(scope: MemoryScope, id: string, patch: MemoryPatch, actor: Actor): Promise<MemoryRecord> {
    return memorySpan(
      'update_memory',
      scope,
      async (span) => {
        span.setAttribute('gen_ai.memory.record.count', 1);
        return this.change(scope, id, patch, actor);
      },
      id,
    );
  }

  private async change(scope: MemoryScope, id: string, patch: MemoryPatch, actor: Actor): Promise<MemoryRecord> {
    if (patch.visibility === undefined && patch.content === undefined && patch.metadata === undefined && patch.expiresAt === undefined) {
      throw new DomainError('VALIDATION_FAILED', 'one of visibility, content, metadata or expires_at is required');
    }
    if (patch.visibility !== undefined && scope.kind !== 'workspace') {
      throw new DomainError('VISIBILITY_NEEDS_WORKSPACE');
    }
    const current = await this.repository.findForWriter(scope, id);
    if (!current) throw new DomainError('MEMORY_NOT_FOUND');
    if (scope.kind === 'workspace' && current.memory.agentId !== scope.agentId) throw notOwner(patch);
    const change: OwnerChange = { visibility: patch.visibility, metadata: patch.metadata, expiresAt: patch.expiresAt };
    if (patch.content !== undefined) change.content = await this.gatedContent(scope, current.memory.sourceSite, patch.content, actor);
    if (!(await this.repository.changeAsOwner(scope, id, change, actor))) {
      // Changed or deleted meanwhile: answer as if the request came after that change.
      const visible = await this.repository.findForWriter(scope, id);
      throw visible ? notOwner(patch) : new DomainError('MEMORY_NOT_FOUND');
    }
    const updated = await this.repository.findForWriter(scope, id);
    if (!updated) throw new DomainError('MEMORY_NOT_FOUND');
    return toMemoryRecord(updated);
  }

  /** A memory's versions, oldest first (CONTRACT section 12); 404 exactly as `get` for an invisible one. */
  async history(scope: MemoryScope, id: string): Promise<{ versions: MemoryVersion[]; count: number }> {
    const rows = await this.repository.history(scope, id);
    if (!rows) throw new DomainError('MEMORY_NOT_FOUND');
    const versions = rows.map(toMemoryVersion);
    return { versions, count: versions.length };
  }

  /** New text through the write gate, then its vector; 422 when the gate refuses it. */
  private async gatedContent(
    scope: MemoryScope,
    sourceSite: string,
    text: string,
    actor: Actor,
  ): Promise<NonNullable<OwnerChange['content']>> {
    const assessment = await this.gate.assess(text);
    const [verdict] = await this.gate.screen(scope, sourceSite, [text], assessment, actor);
    if (!verdict.accepted) {
      throw new DomainError(verdict.reason === 'injection' ? 'CONTENT_BLOCKED' : 'CONTENT_LOW_TRUST');
    }
    const [embedding] = await this.embeddings.embedDocuments([text]);
    return { text, embedding, embeddedBy: this.embeddings.identity, trustScore: verdict.trustScore };
  }
}

/** What a PATCH asks for, already parsed (expiresAt: null clears the expiry). */
export interface MemoryPatch {
  visibility?: VisibilityMode;
  content?: string;
  metadata?: Record<string, unknown>;
  expiresAt?: Date | null;
}

function notOwner(patch: MemoryPatch): DomainError {
  const onlyVisibility = patch.content === undefined && patch.metadata === undefined && patch.expiresAt === undefined;
  return new DomainError(onlyVisibility ? 'NOT_VISIBILITY_OWNER' : 'NOT_MEMORY_OWNER');
}
