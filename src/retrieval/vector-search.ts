import { Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Span } from '@opentelemetry/api';

import { DomainError } from '../common/errors/domain-error';
import { ExpiringMap, ExpiringSet } from '../common/expiring-set';
import type { KeyRecheck } from '../common/identity/key-recheck';
import type { MemoryScope } from '../common/scope/memory-scope';
import { inSpan } from '../common/telemetry/tracing';
import type { Bm25Population } from '../database/access/bm25-statement';
import { MemoryAccess } from '../database/access/memory-access';
import type { LessonGate, LessonHit, SearchStatementResult } from '../database/access/search-statement';
import type { SearchFilters, SearchPurpose } from '../database/access/statement-plans';
import type { MemoryEntity } from '../database/entities/memory.entity';
import { TenantGraphMaintainer } from '../database/maintenance/tenant-graph-maintainer';
import { tenantScopeOf } from '../database/maintenance/tenant-graphs';
import { toVectorLiteral } from '../database/vector';
import type { AppEnv } from '../env/env.schema';
import { rankBm25 } from './bm25-ranking';

export type { SearchFilters, SearchPurpose };

/** Rows of a gated search, and the lessons its check found (null without a gate). */
export interface GatedRows {
  lessons: LessonHit[] | null;
  rows: ScoredRow[];
}

/** What a gated search asks for besides the scope and the query vector. */
export interface GatedRequest {
  k: number;
  filters?: SearchFilters;
  /** The lesson check in the same statement; null or absent for none. */
  gate?: LessonGate | null;
  purpose?: SearchPurpose;
  /** The API key the guard took from memory, re-checked by the first statement. */
  recheck?: KeyRecheck | null;
  /**
   * For a list of candidates rather than an exact top k (hybrid search's vector side): the
   * HNSW plan reads as many index candidates as it would for this many rows, and keeps up to
   * k of them (hnswOverFetch), instead of over-fetching for k exact nearest.
   */
  overFetchFor?: number;
}

/** The checks a statement carries: the lesson gate and the key re-check. */
interface Checks {
  gate: LessonGate | null;
  liveKeyId: string | null;
}
const NO_CHECKS: Checks = { gate: null, liveKeyId: null };

interface StatementOptions extends Checks {
  filters: SearchFilters;
  purpose: SearchPurpose;
  /** GatedRequest.overFetchFor; k when absent. */
  overFetchFor?: number;
}

export interface ScoredRow {
  memory: MemoryEntity;
  /** Cosine distance to the query (0 = same direction). */
  distance: number;
  /** Full-text rank; present for text candidates. */
  textRank?: number;
}

/**
 * How vector search picks its plan (see nearestVisible), from the environment
 * (SEARCH_EXACT_SCOPE_LIMIT, SEARCH_HNSW_EF_SEARCH, SEARCH_FUSION_HNSW_EF_SEARCH). The defaults
 * come from the benchmark's exact-versus-HNSW crossover and its ef_search sweeps
 * (docs/benchmarks.md).
 */
export interface VectorSearchTuning {
  /** Visible rows up to which search is exact; larger scopes use the HNSW index. */
  exactScopeLimit: number;
  /** hnsw.ef_search for the larger scopes. */
  efSearch: number;
  /**
   * hnsw.ef_search for a list of candidates (GatedRequest.overFetchFor: /search's vector side,
   * fused with BM25) on the larger scopes; efSearch when absent.
   */
  fusionEfSearch?: number;
}
export const DEFAULT_VECTOR_SEARCH_TUNING: VectorSearchTuning = { exactScopeLimit: 3000, efSearch: 200, fusionEfSearch: 80 };
const LARGE_SCOPE_TTL_MS = 60_000;

/**
 * The retrieval plans: nearest neighbours by cosine distance (exact or through HNSW) and
 * full-text candidates. Each plan is public so that tests and the benchmark run it on its
 * own. Every statement is built from MemoryAccess with the visibility predicate inside it;
 * nothing is filtered in JavaScript afterwards.
 */
@Injectable()
export class VectorSearch {
  private tuning: VectorSearchTuning;
  /** Scope keys (scope + filters + purpose) known to exceed the exact scope limit. */
  private readonly largeScopes = new ExpiringSet(LARGE_SCOPE_TTL_MS, 10_000);
  /** Full-text population statistics (N, avgdl) of large scopes, by scope key (textMatches). */
  private readonly textPopulations = new ExpiringMap<Bm25Population>(LARGE_SCOPE_TTL_MS, 10_000);

  constructor(
    private readonly access: MemoryAccess,
    @Optional() env?: ConfigService<AppEnv, true>,
    @Optional() private readonly graphs?: TenantGraphMaintainer,
  ) {
    this.tuning = env
      ? {
          exactScopeLimit: env.get('SEARCH_EXACT_SCOPE_LIMIT', { infer: true }),
          efSearch: env.get('SEARCH_HNSW_EF_SEARCH', { infer: true }),
          fusionEfSearch: env.get('SEARCH_FUSION_HNSW_EF_SEARCH', { infer: true }),
        }
      : DEFAULT_VECTOR_SEARCH_TUNING;
  }

  /** Plans with explicit tuning (the benchmark's sweeps, and tests that force the HNSW plan). */
  static withTuning(access: MemoryAccess, tuning: VectorSearchTuning): VectorSearch {
    const search = new VectorSearch(access);
    search.tuning = tuning;
    return search;
  }

  /**
   * Nearest visible memories by cosine distance, always min(k, visible) rows.
   *
   * Two plans, chosen by the size of the caller's visible set (docs/benchmarks.md has the
   * measurements behind the numbers):
   * - up to the exact scope limit (SEARCH_EXACT_SCOPE_LIMIT, default 3,000 rows): exact. The
   *   scope btree finds the rows, every distance is computed and sorted. One statement, no
   *   transaction; it also counts (up to the limit) how many rows the scope has, so a larger
   *   scope is detected in the same round trip.
   * - larger scopes: the HNSW index, with pgvector's iterative scan so the filter cannot
   *   leave fewer than k rows, in a short transaction for the SET LOCAL settings. On
   *   PostgreSQL that is the scope's own graph (tenant-graphs.ts); until it is built, the same
   *   statement is planned exactly (there is no partition-wide graph to walk). When it
   *   still returns fewer than k (the scan stopped at hnsw.max_scan_tuples because the
   *   visible rows are a sliver of the table), the exact plan answers instead.
   * Which scopes are large is remembered for a minute (sizes only, no rows), so a large
   * scope pays the bounded count once, not on every search.
   */
  async nearestVisible(
    scope: MemoryScope,
    embedding: readonly number[],
    k: number,
    filters: SearchFilters = {},
    purpose: SearchPurpose = 'read',
  ): Promise<ScoredRow[]> {
    return (await this.gatedNearest(scope, embedding, { k, filters, purpose })).rows;
  }

  /**
   * nearestVisible with the lesson check in the same statement (`gate`, null for none):
   * a search is one round trip on scopes within the exact limit. When a critical lesson
   * matches, the statement returns no memory (`blocked`) and nothing else runs.
   * `recheck`: the API key the guard took from memory; the first statement re-checks that it
   * is unrevoked and, if it is not, nothing is returned and the request is answered 401.
   */
  gatedNearest(scope: MemoryScope, embedding: readonly number[], request: GatedRequest): Promise<GatedRows> {
    return inSpan(
      'atrium.vector_search',
      () => ({ 'atrium.search.k': request.k, 'atrium.lesson_check.in_statement': Boolean(request.gate) }),
      async (span) => {
        const found = await this.gated(scope, embedding, request);
        span.setAttribute('atrium.search.rows', found.rows.length);
        return found;
      },
    );
  }

  private async gated(scope: MemoryScope, embedding: readonly number[], request: GatedRequest): Promise<GatedRows> {
    const { k, filters = {}, purpose = 'read', recheck = null, overFetchFor } = request;
    const q = toVectorLiteral(embedding);
    const key = scopeKey(scope, filters, purpose);
    // Only the first statement re-checks the key (it runs before anything is returned), and
    // only the first carries the lesson gate.
    let checks: Checks = { gate: request.gate ?? null, liveKeyId: recheck?.keyId ?? null };
    let lessons: LessonHit[] | null = null;
    if (!this.largeScopes.has(key)) {
      const bound = this.tuning.exactScopeLimit;
      const exact = refuseRevoked(await this.exactStatement(scope, q, k, { filters, purpose, ...checks, bound }), recheck);
      if (exact.blocked || exact.candidateRows <= bound) return { lessons: exact.lessons, rows: exact.rows };
      this.largeScopes.add(key);
      this.graphs?.noteLargeScope(tenantScopeOf(scope));
      lessons = exact.lessons;
      checks = NO_CHECKS;
    }
    const approximate = refuseRevoked(await this.indexedStatement(scope, q, k, { filters, purpose, overFetchFor, ...checks }), recheck);
    lessons ??= approximate.lessons;
    if (approximate.blocked || approximate.rows.length >= k) return { lessons, rows: approximate.rows };
    return { lessons, rows: (await this.exactStatement(scope, q, k, { filters, purpose, ...NO_CHECKS })).rows };
  }

  /**
   * Exact top-k over the scope: distances with cosine_distance() (the function, not the `<=>`
   * operator, so the planner cannot swap in the HNSW index and its approximation). With
   * `bound`, at most bound + 1 scope rows are read; null means the scope has more than
   * `bound` rows and this plan should not be used. `q` is a vector literal.
   */
  async exactNearest(
    scope: MemoryScope,
    q: string,
    k: number,
    filters: SearchFilters = {},
    purpose: SearchPurpose = 'read',
    bound?: number,
  ): Promise<ScoredRow[] | null> {
    const result = await this.exactStatement(scope, q, k, { filters, purpose, ...NO_CHECKS, bound });
    if (bound !== undefined && result.candidateRows > bound) return null;
    return result.rows;
  }

  private async exactStatement(
    scope: MemoryScope,
    q: string,
    k: number,
    options: StatementOptions & { bound?: number },
  ): Promise<SearchStatementResult> {
    const { filters, purpose, gate, liveKeyId, bound } = options;
    return this.access.search({
      statement: 'exact-vector',
      scope,
      purpose,
      filters: applicableFilters(scope, filters),
      q,
      k,
      bound: bound ?? null,
      gate,
      liveKeyId,
    });
  }

  /**
   * Top-k through the HNSW index, over-fetched and re-sorted: the inner query orders by the
   * `<=>` operator (so the index serves it) with pgvector's iterative scan in relaxed order,
   * which keeps walking the graph until enough rows pass the scope filter; it takes more
   * candidates than asked (hnswOverFetch: 100 for k = 10), and the outer query sorts them by
   * their exact distance and keeps k. On the largest scopes recall depends on that over-fetch
   * far more than on ef_search (at 40 candidates, ef_search 40 to 400 all gave the same
   * recall); ef_search 200 with 100 candidates costs what 400 with 40 did, with better recall
   * (docs/benchmarks.md). Relaxed order with over-fetch beat strict order at the same cost.
   * enable_sort = off keeps the planner on the index for these large scopes (its row
   * estimate for the visibility predicate is often far too low, which makes the btree plan
   * with a sort look cheap when it would read tens of thousands of rows). That setting also
   * inflates the plan's cost past jit_above_cost, and compiling the query then took almost all
   * of a search (docs/benchmarks.md, "Query design"): jit = off.
   */
  async indexedNearest(
    scope: MemoryScope,
    q: string,
    k: number,
    filters: SearchFilters = {},
    purpose: SearchPurpose = 'read',
  ): Promise<ScoredRow[]> {
    return (await this.indexedStatement(scope, q, k, { filters, purpose, ...NO_CHECKS })).rows;
  }

  private async indexedStatement(scope: MemoryScope, q: string, k: number, options: StatementOptions): Promise<SearchStatementResult> {
    const { filters, purpose, gate, liveKeyId, overFetchFor } = options;
    const ownGraph = this.graphs?.hasGraph(tenantScopeOf(scope)) ?? false;
    // Candidates for fusion walk a narrower beam: the BM25 list carries most of the ranking.
    const efSearch = overFetchFor === undefined ? this.tuning.efSearch : (this.tuning.fusionEfSearch ?? this.tuning.efSearch);
    return this.access.search({
      statement: 'hnsw-vector',
      scope,
      purpose,
      filters: applicableFilters(scope, filters),
      q,
      k,
      candidates: Math.max(k, hnswOverFetch(overFetchFor ?? k, ownGraph)),
      efSearch,
      gate,
      liveKeyId,
    });
  }

  /**
   * Full-text candidates (any of the query's words) ranked by BM25 over the caller's visible
   * rows (database/access/bm25-statement.ts), with their vector distance, computed for the k rows kept only.
   */
  textMatches(
    scope: MemoryScope,
    words: readonly string[],
    embedding: readonly number[],
    k: number,
    filters: SearchFilters = {},
  ): Promise<ScoredRow[]> {
    return inSpan(
      'atrium.bm25',
      () => ({ 'atrium.search.k': k, 'atrium.bm25.words': words.length }),
      async (span) => {
        const rows = await this.bm25(scope, words, embedding, k, filters, span);
        span.setAttribute('atrium.search.rows', rows.length);
        return rows;
      },
    );
  }

  private async bm25(
    scope: MemoryScope,
    words: readonly string[],
    embedding: readonly number[],
    k: number,
    filters: SearchFilters,
    span: Span,
  ): Promise<ScoredRow[]> {
    const applicable = applicableFilters(scope, filters);
    if (!hasFilters(applicable)) {
      // The current rows, unfiltered: statistics kept at write time (bm25-ranking.ts).
      const ranking = await rankBm25(this.access, scope, words, toVectorLiteral(embedding), k);
      span.setAttribute('atrium.bm25.lexemes', ranking.lexemes);
      return ranking.rows;
    }
    // A filter or as_of narrows the population the statistics describe, which the kept
    // statistics do not split by: the statement counts them over the rows it reads. A large
    // scope's N and average length are reused for a minute (bm25-statement.ts, Bm25Population).
    const key = scopeKey(scope, filters, 'read');
    const large = this.largeScopes.has(key);
    const known = large ? this.textPopulations.get(key) : undefined;
    const result = await this.access.textSearch({
      statement: 'full-text',
      scope,
      filters: applicable,
      words,
      q: toVectorLiteral(embedding),
      k,
      population: known ?? null,
    });
    if (large && !known && result.population) this.textPopulations.set(key, result.population);
    return result.rows;
  }
}

/** Whether a search's applicable filters narrow anything (as_of included). */
function hasFilters(filters: SearchFilters): boolean {
  return filters.asOf !== undefined || filters.sourceSite !== undefined || (filters.namespaces?.length ?? 0) > 0;
}

/**
 * Candidates the HNSW plan takes before the exact re-sort keeps k. On the partition's graph
 * (the embedded database's; PostgreSQL has none, and ranks a scope without its own graph
 * exactly), where a large scope's rows are a minority, k + 90 (at least 2k): recall follows the
 * number of candidates there. On the scope's own graph (a tenant graph) k + 30 (at least 2k) recalls as
 * much for less (docs/benchmarks.md, "Round two, large scopes", step 7). Public for the
 * benchmark, which sweeps it.
 */
export function hnswOverFetch(k: number, ownGraph = false): number {
  return Math.max(2 * k, k + (ownGraph ? 30 : 90));
}

/**
 * spec 4.2.6: source_site and namespace narrow user-scope search only; as_of applies in both
 * scopes (it is the moment the search reads, CONTRACT section 12).
 */
function applicableFilters(scope: MemoryScope, filters: SearchFilters): SearchFilters {
  return scope.kind === 'user' ? filters : filters.asOf ? { asOf: filters.asOf } : {};
}

/** A statement that found the request's key revoked: forget the key here and answer 401. */
function refuseRevoked(result: SearchStatementResult, recheck: KeyRecheck | null): SearchStatementResult {
  if (!result.keyRevoked) return result;
  recheck?.revoked();
  throw new DomainError('UNAUTHENTICATED');
}

function scopeKey(scope: MemoryScope, filters: SearchFilters, purpose: SearchPurpose): string {
  return JSON.stringify([scope, purpose, filters.sourceSite ?? null, filters.namespaces ?? null, filters.asOf?.toISOString() ?? null]);
}
