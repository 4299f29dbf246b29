import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { memorySpan } from '../common/telemetry/tracing';
import { toTimestamp } from '../common/validation/timestamp';
import type { IngestResponseWire } from '../contract/wire-types';
import type { VisibilityMode } from '../database/access/visibility';
import type { EpisodeEntity } from '../database/entities/episode.entity';
import { EmbeddingService } from '../embeddings/embedding.service';
import type { InputAssessment } from '../lessons/classifier/assess-input';
import { CONTRADICTION_CONFIDENCE_THRESHOLD, contradictionLesson } from '../lessons/lesson-patterns';
import type { NewLesson } from '../lessons/lesson.types';
import { LessonsService } from '../lessons/lessons.service';
import { WriteGateService } from '../lessons/write-gate.service';
import { MemoriesRepository, type NewMemory } from '../memories/memories.repository';
import { VectorSearch } from '../retrieval/vector-search';
import { SettingsService } from '../settings/settings.service';
import { INLINE_MAX_CHARS } from '../workers/cpu-tasks';
import { CpuWork } from '../workers/cpu-work.service';
import { extractTask } from './extract-task';
import { extractFacts, type ExtractedFact } from './fact-extractor';
import { contradicts, emptyTally, isDuplicate, relevantCandidates, type IngestDecision, type IngestTally } from './ingest-steps';
import type { IngestDto, QuickIngestDto } from './ingest.dto';
import { LlmPlanner } from './llm-planner';

/** The route's answer (declared once, in src/contract/wire-types.ts). */
export type IngestResponse = IngestResponseWire;

/** How many visible neighbours a new fact is compared with. */
const CANDIDATES = 5;

/** Where the rows of one ingest call go: tenant columns and provenance shared by every row. */
interface WriteTarget {
  scope: MemoryScope;
  /** Who is writing (key and request id), for the audit events of every change. */
  actor: Actor;
  dto: IngestDto;
  episodeId: string;
  /** The episode (the input as received), until the first rows of this call are stored with it. */
  episode: EpisodeEntity | null;
  columns: { workspaceId: string | null; agentId: string | null; visibility: VisibilityMode | null };
  /** Which embedder makes this write's vectors (stored beside each one). */
  embeddedBy: string;
}

/** A fact that passed the gate, with its trust score and vector. */
interface AcceptedFact {
  fact: ExtractedFact;
  trustScore: number;
  vector: number[];
}

/** What one ingest call is building: the response, the new rows and the lessons to record. */
interface IngestBatch {
  tally: IngestTally;
  /** Why the gate refused facts of this call (the MCP `remember` tool says so; REST counts them as skipped). */
  refusals: Array<'injection' | 'low_trust'>;
  newRows: NewMemory[];
  contradictions: NewLesson[];
}

/**
 * The write path, as a pipeline of named steps: record the episode, screen the facts with
 * the write-security gate, embed what passed, decide per fact (duplicate, or the LLM's
 * ADD/UPDATE/SUPERSEDE/DELETE/NOOP over what the writer can see), apply each decision, then
 * store the new rows and the contradiction lessons. A workspace write belongs to the calling
 * agent and defaults to `workspace` visibility. Mutations reach only the rows the
 * `ingest-mutation` purpose allows (database/access/visibility.ts); one that cannot apply becomes an ADD.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly search: VectorSearch,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
    private readonly gate: WriteGateService,
    private readonly lessons: LessonsService,
    private readonly planner: LlmPlanner,
    private readonly cpu: CpuWork,
  ) {}

  /** Rule-based facts of a conversation: on a worker when it is long (linear, but not free). */
  private ruleFacts(conversation: string): Promise<ExtractedFact[]> | ExtractedFact[] {
    return conversation.length <= INLINE_MAX_CHARS ? extractFacts(conversation) : this.cpu.run(extractTask(conversation));
  }

  /** /ingest/quick: rule-based extraction (or verbatim with skip_extraction), never an LLM. */
  ingestQuick(scope: MemoryScope, dto: QuickIngestDto, actor: Actor): Promise<IngestResponse> {
    return traced(scope, () => this.quick(scope, dto, actor));
  }

  /** /ingest: in a `create_memory` span, see `ingestFull`. */
  ingest(scope: MemoryScope, dto: IngestDto, actor: Actor): Promise<IngestResponse> {
    return traced(scope, () => this.ingestFull(scope, dto, actor));
  }

  private async quick(scope: MemoryScope, dto: QuickIngestDto, actor: Actor): Promise<IngestResponse> {
    await this.screenFields(scope, dto, actor);
    const facts: ExtractedFact[] = dto.skip_extraction
      ? [{ content: dto.conversation, memoryType: 'semantic', importance: 0.5 }]
      : await this.ruleFacts(dto.conversation);
    return (await this.write(scope, dto, facts, false, await this.gate.assess(dto.conversation), actor)).response;
  }

  /**
   * `conversation` stored verbatim as one memory: /ingest/quick with skip_extraction, and the
   * reasons the write gate gave when it refused it (the MCP `remember` tool reports them).
   */
  async ingestVerbatim(
    scope: MemoryScope,
    dto: QuickIngestDto,
    actor: Actor,
  ): Promise<{ response: IngestResponse; refusals: Array<'injection' | 'low_trust'> }> {
    await this.screenFields(scope, dto, actor);
    const facts: ExtractedFact[] = [{ content: dto.conversation, memoryType: 'semantic', importance: 0.5 }];
    return this.write(scope, dto, facts, false, await this.gate.assess(dto.conversation), actor);
  }

  /**
   * /ingest: LLM extraction and decisions when an LLM is configured, else the rule-based path.
   * The raw conversation is gated before extraction: one the gate would block is never sent
   * to the model, and its facts take the rule-based path, where the blocked sentences' facts
   * are rejected. The model's facts are gated one by one as well.
   */
  private async ingestFull(scope: MemoryScope, dto: IngestDto, actor: Actor): Promise<IngestResponse> {
    await this.screenFields(scope, dto, actor);
    const assessment = await this.gate.assess(dto.conversation);
    let facts: ExtractedFact[] | null = null;
    if (this.planner.available && !assessment?.blocked) {
      facts = await this.planner.extractFacts(dto.conversation);
    }
    return (await this.write(scope, dto, facts ?? (await this.ruleFacts(dto.conversation)), this.planner.available, assessment, actor))
      .response;
  }

  /**
   * Step 0: the provenance fields (`source_site`, `source_url`, `namespace`) reach other agents'
   * prompts beside the text (injection_text), so each passes the write gate like content: one
   * the gate blocks records an injection_blocked lesson and refuses the whole call (422
   * CONTENT_BLOCKED, nothing stored, no episode). `metadata` is raw data: never rendered into
   * a prompt, so it is not screened (docs/security.md). A field is judged by the gate's rules:
   * the classifier, trained on prose, misreads short labels and URLs (it scores
   * `https://chat.example/c/42` as an injection), and the fenced, escaped rendering of
   * injection_text already keeps a field inside its own entry.
   */
  private async screenFields(scope: MemoryScope, dto: IngestDto, actor: Actor): Promise<void> {
    for (const value of [dto.source_site, dto.source_url, dto.namespace]) {
      if (value === undefined || value === '') continue;
      const assessment = await this.gate.assess(value);
      if (!assessment?.findings.some((finding) => finding.source === 'rule' && finding.severity === 'block')) continue;
      await this.gate.screen(scope, dto.source_site, [value], assessment, actor);
      throw new DomainError('CONTENT_BLOCKED');
    }
  }

  private async write(
    scope: MemoryScope,
    dto: IngestDto,
    facts: ExtractedFact[],
    useModel: boolean,
    assessment: InputAssessment | null,
    actor: Actor,
  ): Promise<{ response: IngestResponse; refusals: IngestBatch['refusals'] }> {
    const target = this.writeTarget(scope, dto, actor);
    const batch: IngestBatch = { tally: emptyTally(), refusals: [], newRows: [], contradictions: [] };
    const accepted = await this.screen(target, facts, batch, assessment);
    for (const item of accepted) {
      const decision = await this.decide(target, item, batch, useModel);
      await this.apply(target, item, decision, batch);
    }
    await this.store(target, batch);
    return { response: { episode_id: target.episodeId, facts_extracted: facts.length, ...batch.tally }, refusals: batch.refusals };
  }

  /**
   * Step 1: the episode (the input as received), and the columns every new row shares. The
   * episode is written with this call's first rows, in their statement (or alone at the end
   * when none is stored): one transaction for an ingest, not two.
   */
  private writeTarget(scope: MemoryScope, dto: IngestDto, actor: Actor): WriteTarget {
    const episodeId = randomUUID();
    const columns = writeColumns(scope, dto);
    return {
      scope,
      actor,
      dto,
      episodeId,
      episode: {
        id: episodeId,
        userId: scope.userId,
        workspaceId: columns.workspaceId,
        agentId: columns.agentId,
        sourceSite: dto.source_site,
        sourceUrl: dto.source_url ?? null,
        content: dto.conversation,
        createdAt: new Date(),
      },
      columns,
      embeddedBy: this.embeddings.identity,
    };
  }

  /** The episode, the first time a call stores anything (then null: it is written once). */
  private takeEpisode(target: WriteTarget): EpisodeEntity | undefined {
    const episode = target.episode ?? undefined;
    target.episode = null;
    return episode;
  }

  /**
   * Step 2: the write gate (facts of sentences the whole-input assessment blocked are rejected;
   * every fact is judged on its own too), then one embedding call for every fact that passed.
   * The gate runs even with no fact: a blocked input records its lesson all the same.
   */
  private async screen(
    target: WriteTarget,
    facts: ExtractedFact[],
    batch: IngestBatch,
    assessment: InputAssessment | null,
  ): Promise<AcceptedFact[]> {
    const verdicts = await this.gate.screen(
      target.scope,
      target.dto.source_site,
      facts.map((f) => f.content),
      assessment,
      target.actor,
    );
    if (facts.length === 0) return [];
    const passed = facts.flatMap((fact, i) => (verdicts[i].accepted ? [{ fact, trustScore: verdicts[i].trustScore }] : []));
    for (const verdict of verdicts) if (!verdict.accepted) batch.refusals.push(verdict.reason);
    batch.tally.memories_skipped += facts.length - passed.length;
    if (passed.length === 0) return [];
    const vectors = await this.embeddings.embedDocuments(passed.map((p) => p.fact.content));
    return passed.map((p, i) => ({ ...p, vector: vectors[i] }));
  }

  /**
   * Step 3: one fact's decision. Candidates are what the writer can see (its whole workspace,
   * agent_scope ignored, or its own user scope); a near-copy of one of them, or of a fact
   * accepted earlier in this call, is skipped.
   */
  private async decide(target: WriteTarget, item: AcceptedFact, batch: IngestBatch, useModel: boolean): Promise<IngestDecision> {
    const { duplicateThreshold, audnCandidateThreshold } = this.settings.current();
    const neighbours = await this.search.nearestVisible(target.scope, item.vector, CANDIDATES, {}, 'writer-view');
    const earlier = batch.newRows.map((row) => row.embedding);
    if (isDuplicate(neighbours[0], earlier, item.vector, duplicateThreshold)) return { kind: 'skip', reason: 'duplicate' };
    if (!useModel) return { kind: 'add' };
    return (await this.planner.decide(item.fact.content, relevantCandidates(neighbours, audnCandidateThreshold))) ?? { kind: 'add' };
  }

  /** Step 4: carry out one decision; a mutation the writer may not make becomes an ADD. */
  private async apply(target: WriteTarget, item: AcceptedFact, decision: IngestDecision, batch: IngestBatch): Promise<void> {
    const { tally } = batch;
    switch (decision.kind) {
      case 'skip':
        tally.memories_skipped++;
        return;
      case 'add':
        batch.newRows.push(newRow(target, item));
        return;
      case 'update': {
        const merged = await this.mergedText(target, item, decision.content);
        // The model's merged text is stored only when it passes the gate; refused, the fact is ADDed as it was screened.
        if (merged === null) return void batch.newRows.push(newRow(target, item));
        const changed = await this.repository.updateContentForIngest(
          target.scope,
          decision.targetId,
          {
            content: merged.content,
            embedding: merged.vector,
            embeddedBy: target.embeddedBy,
            importance: item.fact.importance,
            trustScore: merged.trustScore,
          },
          target.actor,
        );
        if (!changed) return void batch.newRows.push(newRow(target, item));
        tally.memories_updated++;
        tally.updated_memory_ids.push(decision.targetId);
        return;
      }
      case 'supersede': {
        const row = newRow(target, item);
        await this.repository.insertMemories([row], target.actor, this.takeEpisode(target));
        tally.memories_stored++;
        tally.stored_memory_ids.push(row.id);
        const expired = await this.repository.supersedeForIngest(
          target.scope,
          decision.targetId,
          { id: row.id, createdAt: row.createdAt },
          target.actor,
        );
        if (expired) this.noteContradiction(target, item, decision, batch);
        return;
      }
      case 'delete': {
        const deleted = await this.repository.deleteForIngest(target.scope, decision.targetId, target.actor);
        if (!deleted) return void batch.newRows.push(newRow(target, item));
        tally.memories_deleted++;
        this.noteContradiction(target, item, decision, batch);
        return;
      }
      default:
        assertNever(decision);
    }
  }

  /**
   * The text an UPDATE stores: the fact itself (already screened), or the model's merged text,
   * which is new text and passes the write gate like any other (a refusal records its lesson
   * and returns null). Its trust score is the lower of the fact's and the merged text's.
   */
  private async mergedText(
    target: WriteTarget,
    item: AcceptedFact,
    content: string | undefined,
  ): Promise<{ content: string; vector: number[]; trustScore: number } | null> {
    if (content === undefined || content === item.fact.content) {
      return { content: item.fact.content, vector: item.vector, trustScore: item.trustScore };
    }
    const assessment = await this.gate.assess(content);
    const [verdict] = await this.gate.screen(target.scope, target.dto.source_site, [content], assessment, target.actor);
    if (!verdict.accepted) return null;
    const [vector] = await this.embeddings.embedDocuments([content]);
    return { content, vector, trustScore: Math.min(item.trustScore, verdict.trustScore) };
  }

  private noteContradiction(target: WriteTarget, item: AcceptedFact, decision: IngestDecision, batch: IngestBatch): void {
    if (!contradicts(decision, CONTRADICTION_CONFIDENCE_THRESHOLD)) return;
    const action = decision.kind === 'supersede' ? 'SUPERSEDE' : 'DELETE';
    batch.contradictions.push(
      contradictionLesson(writeContext(target), item.fact.content, {
        action,
        targetId: decision.targetId,
        confidence: decision.confidence,
      }),
    );
  }

  /** Step 5: the new rows in one INSERT (with the episode, unless a SUPERSEDE stored it), then the lessons. */
  private async store(target: WriteTarget, batch: IngestBatch): Promise<void> {
    const { actor } = target;
    await this.repository.insertMemories(batch.newRows, actor, this.takeEpisode(target));
    batch.tally.memories_stored += batch.newRows.length;
    batch.tally.stored_memory_ids.push(...batch.newRows.map((r) => r.id));
    await this.lessons.record(batch.contradictions, actor);
  }
}

function writeColumns(scope: MemoryScope, dto: IngestDto): WriteTarget['columns'] {
  switch (scope.kind) {
    case 'user':
      if (dto.visibility !== undefined) {
        throw new DomainError('VALIDATION_FAILED', 'visibility is only allowed with workspace_id (workspace scope)');
      }
      return { workspaceId: null, agentId: null, visibility: null };
    case 'workspace':
      return { workspaceId: scope.workspaceId, agentId: scope.agentId, visibility: dto.visibility ?? 'workspace' };
    default:
      return assertNever(scope);
  }
}

function newRow(target: WriteTarget, item: AcceptedFact): NewMemory {
  const now = new Date();
  return {
    id: randomUUID(),
    userId: target.scope.userId,
    ...target.columns,
    content: item.fact.content,
    memoryType: item.fact.memoryType,
    importance: item.fact.importance,
    sourceSite: target.dto.source_site,
    sourceUrl: target.dto.source_url ?? null,
    episodeId: target.episodeId,
    namespace: target.dto.namespace ?? null,
    status: 'active',
    metadata: target.dto.metadata ?? {},
    expiresAt: target.dto.expires_at ? toTimestamp(target.dto.expires_at) : null,
    trustScore: item.trustScore,
    embedding: item.vector,
    embeddedBy: target.embeddedBy,
    createdAt: now,
    updatedAt: now,
  };
}

function writeContext(target: WriteTarget) {
  const { scope, dto } = target;
  return {
    userId: scope.userId,
    sourceSite: dto.source_site,
    ...(scope.kind === 'workspace' ? { workspaceId: scope.workspaceId, agentId: scope.agentId } : {}),
  };
}

/**
 * An ingest is a `create_memory` span: `gen_ai.memory.record.count` is the number of memories
 * it stored, with the updated, deleted and skipped counts beside it. Never the conversation.
 */
function traced(scope: MemoryScope, fn: () => Promise<IngestResponse>): Promise<IngestResponse> {
  return memorySpan('create_memory', scope, async (span) => {
    const response = await fn();
    span.setAttributes({
      'gen_ai.memory.record.count': response.memories_stored,
      'atrium.ingest.facts_extracted': response.facts_extracted,
      'atrium.ingest.memories_updated': response.memories_updated,
      'atrium.ingest.memories_deleted': response.memories_deleted,
      'atrium.ingest.memories_skipped': response.memories_skipped,
    });
    return response;
  });
}
