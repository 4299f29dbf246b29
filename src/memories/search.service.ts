import { Injectable } from '@nestjs/common';

import { scopeToWire, type MemoryScope } from '../common/scope/memory-scope';
import { EmbeddingService } from '../embeddings/embedding.service';
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
}

/** search (hybrid) and search/fast (vector only). Both honour scope and visibility in SQL. */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: MemoriesRepository,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
    private readonly access: AccessTracker,
  ) {}

  private limitFor(dto: SearchDto): number {
    return Math.min(dto.limit ?? DEFAULT_SEARCH_LIMIT, this.settings.current().maxSearchResults);
  }

  private filtersFor(dto: SearchDto): SearchFilters {
    const namespaces = dto.namespace_scope === undefined ? undefined : ([] as string[]).concat(dto.namespace_scope);
    return { sourceSite: dto.source_site, namespaces, asOf: dto.as_of ? new Date(dto.as_of) : undefined };
  }

  async search(scope: MemoryScope, dto: SearchDto, embedding?: number[]): Promise<SearchResponse> {
    const limit = this.limitFor(dto);
    const queryVector = embedding ?? (await this.embeddings.embedQuery(dto.query));
    const filters = this.filtersFor(dto);
    const k = Math.max(MIN_CANDIDATES, limit * CANDIDATE_FACTOR);
    const tsQuery = toOrTsQuery(dto.query);
    const [vector, text] = await Promise.all([
      this.repository.nearestVisible(scope, queryVector, k, filters),
      tsQuery ? this.repository.textMatches(scope, tsQuery, queryVector, k, filters) : Promise.resolve([]),
    ]);
    const now = dto.reference_time ? new Date(dto.reference_time) : new Date();
    const ranked = fuseAndRescore(vector, text, now).slice(0, limit);
    return this.respond(
      scope,
      ranked.map((r) => toSearchHit(r.memory, r.similarity, r.score)),
    );
  }

  async searchFast(scope: MemoryScope, dto: SearchDto, embedding?: number[]): Promise<SearchResponse> {
    const limit = this.limitFor(dto);
    const queryVector = embedding ?? (await this.embeddings.embedQuery(dto.query));
    const rows = await this.repository.nearestVisible(scope, queryVector, limit, this.filtersFor(dto));
    return this.respond(
      scope,
      rows.map((row) => toSearchHit(row.memory, 1 - row.distance, 1 - row.distance)),
    );
  }

  /** The response for a search that retrieved nothing on purpose (a critical lesson matched). */
  emptyResponse(scope: MemoryScope): SearchResponse {
    return this.respond(scope, []);
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
