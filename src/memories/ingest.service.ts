import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { MemoryScope } from '../common/scope/memory-scope';
import { EmbeddingService } from '../embeddings/embedding.service';
import { cosine } from '../embeddings/vector-math';
import { contradictionLesson, CONTRADICTION_CONFIDENCE_THRESHOLD } from '../lessons/lesson-patterns';
import type { NewLesson } from '../lessons/lesson.types';
import { LessonsService } from '../lessons/lessons.service';
import { WriteGateService } from '../lessons/write-gate.service';
import { SettingsService } from '../settings/settings.service';
import type { IngestDto, QuickIngestDto } from './dto/ingest.dto';
import { extractFacts, type ExtractedFact } from './fact-extractor';
import { LlmPlanner, type Decision } from './llm-planner';
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

/** How many visible neighbours a new fact is compared with. */
const CANDIDATES = 5;

/**
 * The write path: episode, facts, the write-security gate, embeddings, de-duplication and
 * (with an LLM) ADD/UPDATE/SUPERSEDE/DELETE/NOOP decisions over what the writer can see,
 * then the writes. A workspace write belongs to the calling agent and defaults to
 * `workspace` visibility. Mutations only reach rows the writer may mutate (forMutation in
 * database/visibility.ts); a decision that cannot apply becomes an ADD.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
    private readonly gate: WriteGateService,
    private readonly lessons: LessonsService,
    private readonly planner: LlmPlanner,
  ) {}

  /** /ingest/quick: rule-based extraction (or verbatim with skip_extraction), never an LLM. */
  async ingestQuick(scope: MemoryScope, dto: QuickIngestDto): Promise<IngestResponse> {
    const facts: ExtractedFact[] = dto.skip_extraction
      ? [{ content: dto.conversation, memoryType: 'semantic', importance: 0.5 }]
      : extractFacts(dto.conversation);
    return this.write(scope, dto, facts, false);
  }

  /**
   * /ingest: LLM extraction and decisions when an LLM is configured, else the rule-based path.
   * A conversation the sanitizer would block is never sent to the model: its facts go
   * through the rule-based path and the gate, fact by fact.
   */
  async ingest(scope: MemoryScope, dto: IngestDto): Promise<IngestResponse> {
    let facts: ExtractedFact[] | null = null;
    if (this.planner.available && this.gate.isSafeForModel(dto.conversation)) {
      facts = await this.planner.extractFacts(dto.conversation);
    }
    return this.write(scope, dto, facts ?? extractFacts(dto.conversation), this.planner.available);
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

  private async write(scope: MemoryScope, dto: IngestDto, facts: ExtractedFact[], decide: boolean): Promise<IngestResponse> {
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

    const verdicts = await this.gate.screen(
      scope,
      dto.source_site,
      facts.map((f) => f.content),
    );
    const accepted = facts.flatMap((fact, i) => {
      const verdict = verdicts[i];
      return verdict.accepted ? [{ fact, trustScore: verdict.trustScore }] : [];
    });
    response.memories_skipped += facts.length - accepted.length;
    if (accepted.length === 0) return response;

    const vectors = await this.embeddings.embedDocuments(accepted.map((a) => a.fact.content));
    const { duplicateThreshold, audnCandidateThreshold } = this.settings.current();
    // Candidates are what the writer can see: its whole workspace (or its own user scope).
    const writerScope: MemoryScope = scope.kind === 'workspace' ? { ...scope, agentScope: { kind: 'all' } } : scope;
    const newRows: NewMemory[] = [];
    const contradictions: NewLesson[] = [];
    const buildRow = (i: number): NewMemory => {
      const now = new Date();
      return {
        id: randomUUID(),
        userId: scope.userId,
        ...columns,
        content: accepted[i].fact.content,
        memoryType: accepted[i].fact.memoryType,
        importance: accepted[i].fact.importance,
        sourceSite: dto.source_site,
        sourceUrl: dto.source_url ?? null,
        episodeId,
        namespace: dto.namespace ?? null,
        status: 'active',
        metadata: dto.metadata ?? {},
        trustScore: accepted[i].trustScore,
        embedding: vectors[i],
        createdAt: now,
        updatedAt: now,
      };
    };

    for (let i = 0; i < accepted.length; i++) {
      const content = accepted[i].fact.content;
      const candidates = await this.repository.nearestVisible(writerScope, vectors[i], CANDIDATES);
      const top = candidates[0];
      const duplicate =
        (top !== undefined && 1 - top.distance >= duplicateThreshold) ||
        newRows.some((row) => cosine(row.embedding, vectors[i]) >= duplicateThreshold);
      if (duplicate) {
        response.memories_skipped++;
        continue;
      }
      let decision: Decision = { action: 'ADD', confidence: 0 };
      if (decide) {
        const relevant = candidates
          .filter((c) => 1 - c.distance >= audnCandidateThreshold)
          .map((c) => ({ id: c.memory.id, content: c.memory.content, similarity: 1 - c.distance }));
        decision = (await this.planner.decide(content, relevant)) ?? decision;
      }

      switch (decision.action) {
        case 'NOOP':
          response.memories_skipped++;
          break;
        case 'UPDATE': {
          const changed = await this.repository.updateContentForIngest(writerScope, decision.targetId as string, {
            content: decision.content ?? content,
            embedding: decision.content ? (await this.embeddings.embedDocuments([decision.content]))[0] : vectors[i],
            importance: accepted[i].fact.importance,
            trustScore: accepted[i].trustScore,
          });
          if (changed) {
            response.memories_updated++;
            response.updated_memory_ids.push(decision.targetId as string);
          } else newRows.push(buildRow(i));
          break;
        }
        case 'SUPERSEDE': {
          const row = buildRow(i);
          await this.repository.insertMemories([row]);
          response.memories_stored++;
          response.stored_memory_ids.push(row.id);
          const expired = await this.repository.expireForIngest(writerScope, decision.targetId as string, row.id);
          if (expired && decision.confidence >= CONTRADICTION_CONFIDENCE_THRESHOLD) {
            contradictions.push(contradictionLesson(this.context(scope, dto), content, { action: 'SUPERSEDE', targetId: decision.targetId as string, confidence: decision.confidence }));
          }
          break;
        }
        case 'DELETE': {
          const deleted = await this.repository.deleteForIngest(writerScope, decision.targetId as string);
          if (deleted) {
            response.memories_deleted++;
            if (decision.confidence >= CONTRADICTION_CONFIDENCE_THRESHOLD) {
              contradictions.push(contradictionLesson(this.context(scope, dto), content, { action: 'DELETE', targetId: decision.targetId as string, confidence: decision.confidence }));
            }
          } else newRows.push(buildRow(i));
          break;
        }
        case 'ADD':
          newRows.push(buildRow(i));
          break;
        default:
          assertNever(decision.action);
      }
    }
    await this.repository.insertMemories(newRows);
    response.memories_stored += newRows.length;
    response.stored_memory_ids.push(...newRows.map((r) => r.id));
    await this.lessons.record(contradictions);
    return response;
  }

  private context(scope: MemoryScope, dto: IngestDto) {
    return {
      userId: scope.userId,
      sourceSite: dto.source_site,
      ...(scope.kind === 'workspace' ? { workspaceId: scope.workspaceId, agentId: scope.agentId } : {}),
    };
  }
}
