import { Injectable } from '@nestjs/common';

import type { KeyRecheck } from '../common/identity/key-recheck';
import type { Principal } from '../common/identity/principal';
import { scopeToWire, type MemoryScope } from '../common/scope/memory-scope';
import { inSpanSync, memorySpan } from '../common/telemetry/tracing';
import { toTimestamp } from '../common/validation/timestamp';
import { EmbeddingService } from '../embeddings/embedding.service';
import type { LessonCheck } from '../lessons/lesson.types';
import type { LessonMatch } from '../lessons/lessons.repository';
import { LessonsService } from '../lessons/lessons.service';
import { AccessTracker } from '../memories/access-tracker';
import { toInjectionText, toSearchHit, type SearchHit } from '../memories/memory.mapper';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { fuseAndRescore, searchableWords } from './ranking';
import type { SearchDto } from './search.dto';
import { VectorSearch, type SearchFilters } from './vector-search';

export const DEFAULT_SEARCH_LIMIT = 10;
/** Candidates fetched per list before fusion: enough that re-scoring can reorder. */
const CANDIDATE_FACTOR = 4;
const MIN_CANDIDATES = 40;

export interface SearchResponse {
  count: number;
  retrieval_mode: 'flat';
  scope: Record<string, unknown>;
  memories: SearchHit[];
  injection_text: string;
  citations: string[];
  lesson_check?: LessonCheck;
}

/** search (hybrid) and search/fast (vector only). Both honour scope and visibility in SQL. */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: VectorSearch,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
    private readonly access: AccessTracker,
    private readonly lessons: LessonsService,
    private readonly metrics: MetricsService,
  ) {}

  private limitFor(dto: SearchDto): number {
    return Math.min(dto.limit ?? DEFAULT_SEARCH_LIMIT, this.settings.current().maxSearchResults);
  }

  private filtersFor(dto: SearchDto): SearchFilters {
    const namespaces = dto.namespace_scope === undefined ? undefined : ([] as string[]).concat(dto.namespace_scope);
    return { sourceSite: dto.source_site, namespaces, asOf: dto.as_of ? toTimestamp(dto.as_of) : undefined };
  }

  /**
   * Hybrid search: vector and full-text candidates fused by reciprocal rank, then re-scored.
   * Two statements, run together on two connections, each prepared once per shape: the vector
   * side carries the lesson check (and the key re-check, `recheck`) like search/fast; the
   * full-text side is BM25 over the visible rows. When the check matches a critical lesson,
   * the full-text rows are dropped unread and the answer is the block alone.
   */
  search(scope: MemoryScope, dto: SearchDto, recheck: KeyRecheck | null, principal: Principal): Promise<SearchResponse> {
    return this.traced(scope, 'hybrid', () => this.hybrid(scope, dto, recheck, principal));
  }

  searchFast(scope: MemoryScope, dto: SearchDto, recheck: KeyRecheck | null, principal: Principal): Promise<SearchResponse> {
    return this.traced(scope, 'fast', () => this.fast(scope, dto, recheck, principal));
  }

  /** The `search_memory` span: ids and counts only, never the query or a memory's content. */
  private traced(scope: MemoryScope, mode: 'hybrid' | 'fast', fn: () => Promise<SearchResponse>): Promise<SearchResponse> {
    return memorySpan('search_memory', scope, async (span) => {
      span.setAttribute('atrium.search.mode', mode);
      const response = await fn();
      span.setAttribute('gen_ai.memory.record.count', response.count);
      if (response.lesson_check) span.setAttribute('atrium.lesson_check.safe', response.lesson_check.safe);
      return response;
    });
  }

  private async hybrid(scope: MemoryScope, dto: SearchDto, recheck: KeyRecheck | null, principal: Principal): Promise<SearchResponse> {
    const queryVector = await this.embeddings.embedQuery(dto.query);
    const limit = this.limitFor(dto);
    const filters = this.filtersFor(dto);
    const k = Math.max(MIN_CANDIDATES, limit * CANDIDATE_FACTOR);
    const words = searchableWords(dto.query);
    const texts = words.length > 0 ? this.repository.textMatches(scope, words, queryVector, k, filters) : Promise.resolve([]);
    // Handled at once: if the vector side fails first (a revoked key, a dropped connection),
    // this promise's own failure must not go unhandled while nobody awaits it.
    texts.catch(() => undefined);
    // The vector side is a list of candidates for fusion, not an exact top k: on large scopes
    // it reads the index candidates search/fast would for `limit` rows (docs/retrieval.md).
    const found = await this.repository.gatedNearest(scope, queryVector, {
      k,
      filters,
      gate: this.lessons.gate(),
      recheck,
      overFetchFor: limit,
    });
    const check = this.checkLessons(found.lessons as LessonMatch[] | null, principal);
    if (check && !check.safe) await this.lessons.failedClosed(scope, found.lessons as LessonMatch[], check.highest_severity);
    if (check && !check.safe) return this.answer(scope, check, []);
    const now = dto.reference_time ? toTimestamp(dto.reference_time) : new Date();
    const hits = fuseAndRescore(found.rows, await texts, now, dto.query)
      .slice(0, limit)
      .map((r) => toSearchHit(r.memory, r.similarity, r.score));
    return this.answer(scope, check, hits);
  }

  /**
   * Vector retrieval only, with the lesson check in the same statement (one round trip on
   * scopes within the exact limit): when it matches a `critical` lesson the statement
   * returns no memory, so none is read, cited or counted as accessed. With an API key taken
   * from memory (`recheck`), the same statement checks that the key is still unrevoked.
   */
  private async fast(scope: MemoryScope, dto: SearchDto, recheck: KeyRecheck | null, principal: Principal): Promise<SearchResponse> {
    const queryVector = await this.embeddings.embedQuery(dto.query);
    const gate = this.lessons.gate();
    const found = await this.repository.gatedNearest(scope, queryVector, {
      k: this.limitFor(dto),
      filters: this.filtersFor(dto),
      gate,
      recheck,
    });
    const check = this.checkLessons(found.lessons as LessonMatch[] | null, principal);
    if (check && !check.safe) await this.lessons.failedClosed(scope, found.lessons as LessonMatch[], check.highest_severity);
    const hits = found.rows.map((row) => toSearchHit(row.memory, 1 - row.distance, 1 - row.distance));
    return this.answer(scope, check, hits);
  }

  /**
   * The lesson check's verdict, in its own span. The matching itself runs inside the vector
   * statement (its SQL span); this is the summary of what matched: counts and severity only.
   */
  private checkLessons(matches: LessonMatch[] | null, principal: Principal): LessonCheck | null {
    if (matches === null) return null;
    return inSpanSync(
      'atrium.lesson_check',
      () => ({ 'atrium.lesson_check.candidates': matches.length }),
      (span) => {
        const check = this.lessons.summarize(matches, principal);
        span.setAttribute('atrium.lesson_check.matched_count', check.matched_count);
        span.setAttribute('atrium.lesson_check.safe', check.safe);
        if (check.highest_severity) span.setAttribute('atrium.lesson_check.highest_severity', check.highest_severity);
        return check;
      },
    );
  }

  /** The response, with the lesson block when there was a check; a failed check answers no hits. */
  private answer(scope: MemoryScope, check: LessonCheck | null, hits: SearchHit[]): SearchResponse {
    if (check?.matched_count) this.metrics.lessonWarnings.inc({ severity: check.highest_severity }, check.matched_count);
    if (check && !check.safe) {
      this.metrics.searchesBlocked.inc({ scope: scope.kind });
      return { ...this.respond(scope, []), lesson_check: check };
    }
    const response = this.respond(scope, hits);
    return check ? { ...response, lesson_check: check } : response;
  }

  private respond(scope: MemoryScope, hits: SearchHit[]): SearchResponse {
    this.access.record(
      scope,
      hits.map((h) => h.id),
    );
    return {
      count: hits.length,
      retrieval_mode: 'flat',
      scope: scopeToWire(scope),
      memories: hits,
      injection_text: toInjectionText(hits),
      citations: hits.map((h) => h.id),
    };
  }
}
