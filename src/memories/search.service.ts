import { Injectable } from '@nestjs/common';

import { scopeToWire, type MemoryScope } from '../common/scope/memory-scope';
import { EmbeddingService } from '../embeddings/embedding.service';
import type { LessonCheck } from '../lessons/lesson.types';
import { LessonsService } from '../lessons/lessons.service';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { AccessTracker } from './access-tracker';
import type { SearchDto } from './dto/search.dto';
import { MemoriesRepository, type SearchFilters } from './memories.repository';
import { toInjectionText, toSearchHit, type SearchHit } from './memory.mapper';
import { fuseAndRescore, toOrTsQuery } from './ranking';

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
    private readonly repository: MemoriesRepository,
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
    return { sourceSite: dto.source_site, namespaces, asOf: dto.as_of ? new Date(dto.as_of) : undefined };
  }

  /** Hybrid search: vector and full-text candidates fused by reciprocal rank, then re-scored. */
  async search(scope: MemoryScope, dto: SearchDto): Promise<SearchResponse> {
    return this.guarded(scope, dto, async (queryVector, limit) => {
      const filters = this.filtersFor(dto);
      const k = Math.max(MIN_CANDIDATES, limit * CANDIDATE_FACTOR);
      const tsQuery = toOrTsQuery(dto.query);
      const [vector, text] = await Promise.all([
        this.repository.nearestVisible(scope, queryVector, k, filters),
        tsQuery ? this.repository.textMatches(scope, tsQuery, queryVector, k, filters) : Promise.resolve([]),
      ]);
      const now = dto.reference_time ? new Date(dto.reference_time) : new Date();
      return fuseAndRescore(vector, text, now)
        .slice(0, limit)
        .map((r) => toSearchHit(r.memory, r.similarity, r.score));
    });
  }

  /** Vector retrieval only. */
  async searchFast(scope: MemoryScope, dto: SearchDto): Promise<SearchResponse> {
    return this.guarded(scope, dto, async (queryVector, limit) => {
      const rows = await this.repository.nearestVisible(scope, queryVector, limit, this.filtersFor(dto));
      return rows.map((row) => toSearchHit(row.memory, 1 - row.distance, 1 - row.distance));
    });
  }

  /**
   * One embedding per search, shared by the lesson check and retrieval. The check and
   * retrieval start together (on PostgreSQL they run on two connections, so the check adds
   * almost nothing to latency); when the check matches a `critical` lesson the search fails
   * closed: the retrieved rows are dropped unread, so no memory, citation or access record
   * leaves the service, and the block says why.
   */
  private async guarded(
    scope: MemoryScope,
    dto: SearchDto,
    retrieve: (queryVector: number[], limit: number) => Promise<SearchHit[]>,
  ): Promise<SearchResponse> {
    const queryVector = await this.embeddings.embedQuery(dto.query);
    const checking = this.lessons.check(scope.userId, queryVector);
    const retrieving = retrieve(queryVector, this.limitFor(dto));
    let check: LessonCheck | null;
    try {
      check = await checking;
    } catch (error) {
      retrieving.catch(() => undefined);
      throw error;
    }
    if (check?.matched_count) this.metrics.lessonWarnings.inc({ severity: check.highest_severity }, check.matched_count);
    if (check && !check.safe) {
      retrieving.catch(() => undefined);
      this.metrics.searchesBlocked.inc({ scope: scope.kind });
      return { ...this.respond(scope, []), lesson_check: check };
    }
    const response = this.respond(scope, await retrieving);
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
