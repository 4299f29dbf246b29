import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { MemoryScope } from '../common/scope/memory-scope';
import { EmbeddingService } from '../embeddings/embedding.service';
import { SettingsService } from '../settings/settings.service';
import type { IngestDto, QuickIngestDto } from './dto/ingest.dto';
import { extractFacts, type ExtractedFact } from './fact-extractor';
import { MemoriesRepository, type NewMemory } from './memories.repository';
import type { MemoryVisibility } from './memory.entity';

export interface IngestResponse {
  episode_id: string;
  facts_extracted: number;
  memories_stored: number;
  memories_updated: number;
  memories_deleted: number;
  memories_skipped: number;
  stored_memory_ids: string[];
  updated_memory_ids: string[];
}

/**
 * The write path: episode, facts, embeddings, de-duplication against what the writer can see,
 * insert. A workspace write belongs to the calling agent and defaults to `workspace` visibility.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
  ) {}

  /** /ingest/quick: rule-based extraction (or verbatim with skip_extraction), never an LLM. */
  async ingestQuick(scope: MemoryScope, dto: QuickIngestDto): Promise<IngestResponse> {
    const facts: ExtractedFact[] = dto.skip_extraction
      ? [{ content: dto.conversation, memoryType: 'semantic', importance: 0.5 }]
      : extractFacts(dto.conversation);
    return this.store(scope, dto, facts);
  }

  /** /ingest: the same rule-based path until an LLM extractor is configured. */
  async ingest(scope: MemoryScope, dto: IngestDto): Promise<IngestResponse> {
    return this.store(scope, dto, extractFacts(dto.conversation));
  }

  private writeColumns(scope: MemoryScope, dto: IngestDto) {
    switch (scope.kind) {
      case 'user':
        if (dto.visibility !== undefined) {
          throw new DomainError('VALIDATION_FAILED', 'visibility is only allowed with workspace_id (workspace scope)');
        }
        return { workspaceId: null, agentId: null, visibility: null };
      case 'workspace':
        return {
          workspaceId: scope.workspaceId,
          agentId: scope.agentId,
          visibility: (dto.visibility ?? 'workspace') as MemoryVisibility,
        };
      default:
        return assertNever(scope);
    }
  }

  private async store(scope: MemoryScope, dto: IngestDto, facts: ExtractedFact[]): Promise<IngestResponse> {
    const columns = this.writeColumns(scope, dto);
    const episodeId = randomUUID();
    await this.repository.insertEpisode({
      id: episodeId,
      userId: scope.userId,
      workspaceId: columns.workspaceId,
      agentId: columns.agentId,
      sourceSite: dto.source_site,
      sourceUrl: dto.source_url ?? null,
      content: dto.conversation,
      createdAt: new Date(),
    });

    const response: IngestResponse = {
      episode_id: episodeId,
      facts_extracted: facts.length,
      memories_stored: 0,
      memories_updated: 0,
      memories_deleted: 0,
      memories_skipped: 0,
      stored_memory_ids: [],
      updated_memory_ids: [],
    };
    if (facts.length === 0) return response;

    const vectors = await this.embeddings.embedDocuments(facts.map((f) => f.content));
    const threshold = this.settings.current().duplicateThreshold;
    // De-duplicate against what the writer can see (its own scope, all agents) ...
    const dedupScope: MemoryScope = scope.kind === 'workspace' ? { ...scope, agentScope: { kind: 'all' } } : scope;
    const rows: NewMemory[] = [];
    for (let i = 0; i < facts.length; i++) {
      const [nearest] = await this.repository.nearestVisible(dedupScope, vectors[i], 1);
      const duplicateOfStored = nearest && 1 - nearest.distance >= threshold;
      // ... and against facts of this same call.
      const duplicateInBatch = rows.some((row) => cosine(row.embedding, vectors[i]) >= threshold);
      if (duplicateOfStored || duplicateInBatch) {
        response.memories_skipped++;
        continue;
      }
      const now = new Date();
      rows.push({
        id: randomUUID(),
        userId: scope.userId,
        ...columns,
        content: facts[i].content,
        memoryType: facts[i].memoryType,
        importance: facts[i].importance,
        sourceSite: dto.source_site,
        sourceUrl: dto.source_url ?? null,
        episodeId,
        namespace: dto.namespace ?? null,
        status: 'active',
        metadata: dto.metadata ?? {},
        trustScore: 1,
        embedding: vectors[i],
        createdAt: now,
        updatedAt: now,
      });
    }
    await this.repository.insertMemories(rows);
    response.memories_stored = rows.length;
    response.stored_memory_ids = rows.map((r) => r.id);
    return response;
  }
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
