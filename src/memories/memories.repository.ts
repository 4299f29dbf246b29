import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
import { APP_ENV } from '../env/app-env.token';
import type { AppEnv } from '../env/env.schema';
import { toVectorLiteral } from '../database/vector';
import { applyMemoryScope } from '../database/visibility';
import { EpisodeEntity } from './episode.entity';
import { MemoryEntity, type MemoryVisibility } from './memory.entity';

export interface SearchFilters {
  /** User scope only. */
  sourceSite?: string;
  namespaces?: string[];
  asOf?: Date;
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
 * (SEARCH_EXACT_SCOPE_LIMIT, SEARCH_HNSW_EF_SEARCH). The defaults come from the benchmark's
 * exact-versus-HNSW crossover and its ef_search sweep (docs/benchmarks.md).
 */
export interface VectorSearchTuning {
  /** Visible rows up to which search is exact; larger scopes use the HNSW index. */
  exactScopeLimit: number;
  /** hnsw.ef_search for the larger scopes. */
  efSearch: number;
}
export const DEFAULT_VECTOR_SEARCH_TUNING: VectorSearchTuning = { exactScopeLimit: 3000, efSearch: 200 };
/** Iterative-scan budget before the exact plan takes over (pgvector default 20,000). */
const HNSW_MAX_SCAN_TUPLES = 20_000;
const LARGE_SCOPE_TTL_MS = 60_000;
/** How long access increments gather before they are written (see recordAccess). */
const ACCESS_WRITE_DELAY_MS = 50;

export type NewMemory = Omit<MemoryEntity, 'lastAccessedAt' | 'accessCount' | 'deletedAt' | 'expiredAt' | 'supersededBy'>;

/**
 * Data access for memories. Every method takes the caller's scope first and every query goes
 * through applyMemoryScope (database/visibility.ts): visibility is decided in SQL, and no
 * method filters rows in JavaScript afterwards.
 */
@Injectable()
export class MemoriesRepository {
  private readonly tuning: VectorSearchTuning;

  constructor(
    @InjectRepository(MemoryEntity) private readonly memories: Repository<MemoryEntity>,
    @InjectRepository(EpisodeEntity) private readonly episodes: Repository<EpisodeEntity>,
    private readonly dataSource: DataSource,
    @Optional() @Inject(APP_ENV) env?: Pick<AppEnv, 'SEARCH_EXACT_SCOPE_LIMIT' | 'SEARCH_HNSW_EF_SEARCH'>,
  ) {
    this.tuning = env
      ? { exactScopeLimit: env.SEARCH_EXACT_SCOPE_LIMIT, efSearch: env.SEARCH_HNSW_EF_SEARCH }
      : DEFAULT_VECTOR_SEARCH_TUNING;
  }

  /** Scope keys (scope + filters) known to exceed the exact scope limit; see nearestVisible. */
  private readonly largeScopes = new ExpiringSet(LARGE_SCOPE_TTL_MS, 10_000);
  private readonly accessWrites = new CoalescingWriter((scope, counts) => this.writeAccess(scope, counts), ACCESS_WRITE_DELAY_MS);

  private scoped(scope: MemoryScope): SelectQueryBuilder<MemoryEntity> {
    return applyMemoryScope(this.memories.createQueryBuilder('m'), 'm', scope);
  }

  async findVisibleById(scope: MemoryScope, id: string): Promise<MemoryEntity | null> {
    return this.scoped(scope).andWhere('m.id = :id', { id }).getOne();
  }

  async findVisibleByIds(scope: MemoryScope, ids: readonly string[]): Promise<MemoryEntity[]> {
    if (ids.length === 0) return [];
    return this.scoped(scope)
      .andWhere('m.id = ANY(CAST(:ids AS uuid[]))', { ids: [...ids] })
      .getMany();
  }

  async listVisible(
    scope: MemoryScope,
    page: { limit: number; offset: number; sourceSite?: string; episodeId?: string },
  ): Promise<MemoryEntity[]> {
    const qb = this.scoped(scope);
    if (scope.kind === 'user') {
      if (page.sourceSite !== undefined) qb.andWhere('m.source_site = :sourceSite', { sourceSite: page.sourceSite });
      if (page.episodeId !== undefined) qb.andWhere('m.episode_id = :episodeId', { episodeId: page.episodeId });
    }
    return qb.orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC').limit(page.limit).offset(page.offset).getMany();
  }

  private applyFilters(qb: SelectQueryBuilder<MemoryEntity>, alias: string, scope: MemoryScope, filters: SearchFilters): void {
    if (scope.kind !== 'user') return; // spec 4.2.6: these narrow user-scope search only
    if (filters.sourceSite !== undefined) qb.andWhere(`${alias}.source_site = :f_sourceSite`, { f_sourceSite: filters.sourceSite });
    if (filters.namespaces?.length) {
      qb.andWhere(`${alias}.namespace = ANY(CAST(:f_namespaces AS text[]))`, { f_namespaces: filters.namespaces });
    }
    if (filters.asOf) qb.andWhere(`${alias}.created_at <= :f_asOf`, { f_asOf: filters.asOf });
  }

  /**
   * Nearest visible memories by cosine distance, always min(k, visible) rows.
   *
   * Two plans, chosen by the size of the caller's visible set (docs/benchmarks.md has the
   * measurements behind the numbers):
   * - up to the exact scope limit (SEARCH_EXACT_SCOPE_LIMIT, default 3,000 rows): exact. The
   *   scope btree finds the rows, every distance is computed and sorted. One statement, no transaction; it also counts (up to the limit)
   *   how many rows the scope has, so a larger scope is detected in the same round trip.
   * - larger scopes: the HNSW index, with pgvector's iterative scan so the filter cannot
   *   leave fewer than k rows, in a short transaction for the SET LOCAL settings. When it
   *   still returns fewer than k (the scan stopped at hnsw.max_scan_tuples because the
   *   visible rows are a sliver of the table), the exact plan answers instead.
   * Which scopes are large is remembered for a minute (sizes only, no rows), so a large
   * scope pays the bounded count once, not on every search.
   * Visibility is applyMemoryScope's predicate inside the same statement in both plans.
   */
  async nearestVisible(scope: MemoryScope, embedding: readonly number[], k: number, filters: SearchFilters = {}): Promise<ScoredRow[]> {
    const q = toVectorLiteral(embedding);
    const key = scopeKey(scope, filters);
    if (!this.largeScopes.has(key)) {
      const exact = await this.exactNearest(scope, q, k, filters, this.tuning.exactScopeLimit);
      if (exact) return exact;
      this.largeScopes.add(key);
    }
    const approximate = await this.indexedNearest(scope, q, k, filters);
    if (approximate.length >= k) return approximate;
    return (await this.exactNearest(scope, q, k, filters)) ?? [];
  }

  /**
   * Exact top-k over the scope: distances with cosine_distance() (the function, not the `<=>`
   * operator, so the planner cannot swap in the HNSW index and its approximation). With
   * `bound`, at most bound + 1 scope rows are read; null means the scope has more than
   * `bound` rows and this plan should not be used.
   */
  private async exactNearest(
    scope: MemoryScope,
    q: string,
    k: number,
    filters: SearchFilters,
    bound?: number,
  ): Promise<ScoredRow[] | null> {
    const candidates = applyMemoryScope(this.memories.createQueryBuilder('v'), 'v', scope)
      .select('v.id', 'id')
      .addSelect('cosine_distance(v.embedding, CAST(:q AS vector))', 'distance');
    this.applyFilters(candidates, 'v', scope, filters);
    if (bound !== undefined) candidates.limit(bound + 1);
    const top = `SELECT b.id, b.distance, count(*) OVER () AS scope_rows FROM (${candidates.getQuery()}) b ORDER BY b.distance, b.id LIMIT :k`;
    const qb = withRows(this.memories, top, { ...candidates.getParameters(), q, k }, ['distance', 'scope_rows'])
      .orderBy('c.distance', 'ASC')
      .addOrderBy('m.id', 'ASC');
    const { entities, raw } = await qb.getRawAndEntities<{ m_id: string; distance: string; scope_rows: string }>();
    if (bound !== undefined && raw.length > 0 && Number(raw[0].scope_rows) > bound) return null;
    return withDistances(entities, raw);
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
   * enable_sort = off keeps the planner on the
   * index for these large scopes (its row estimate for the visibility predicate is often far
   * too low, which makes the btree plan with a sort look cheap when it would read tens of
   * thousands of rows). That setting also inflates the plan's cost past jit_above_cost, and
   * compiling the query took 160 ms of a 167 ms search: jit = off.
   */
  private async indexedNearest(scope: MemoryScope, q: string, k: number, filters: SearchFilters): Promise<ScoredRow[]> {
    const efSearch = Math.min(1000, Math.max(this.tuning.efSearch, k * 2));
    const overFetch = hnswOverFetch(k);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)," +
          " set_config('hnsw.max_scan_tuples', $2, true), set_config('enable_sort', 'off', true), set_config('jit', 'off', true)",
        [String(efSearch), String(HNSW_MAX_SCAN_TUPLES)],
      );
      const repository = manager.getRepository(MemoryEntity);
      const candidates = applyMemoryScope(repository.createQueryBuilder('v'), 'v', scope)
        .select('v.id', 'id')
        .addSelect('v.embedding <=> CAST(:q AS vector)', 'distance');
      this.applyFilters(candidates, 'v', scope, filters);
      candidates.orderBy('distance', 'ASC').limit(overFetch);
      // `+ 0`: the candidates come from the index in *relaxed* order, but the planner takes
      // them for sorted by distance and would only read the first k (an incremental sort);
      // an expression it cannot match makes it read all of them and really sort.
      const qb = withRows(repository, candidates.getQuery(), { ...candidates.getParameters(), q }, ['distance'])
        .orderBy('c.distance + 0', 'ASC')
        .addOrderBy('m.id', 'ASC')
        .limit(k);
      const { entities, raw } = await qb.getRawAndEntities<{ m_id: string; distance: string }>();
      return withDistances(entities, raw);
    });
  }

  /**
   * Full-text candidates (any of the query's words), ranked; with their vector distance.
   * The distance is computed for the k rows kept, not for every text match.
   */
  async textMatches(
    scope: MemoryScope,
    tsQuery: string,
    embedding: readonly number[],
    k: number,
    filters: SearchFilters = {},
  ): Promise<ScoredRow[]> {
    const matches = applyMemoryScope(this.memories.createQueryBuilder('t'), 't', scope)
      .select('t.id', 'id')
      .addSelect("ts_rank_cd(t.content_tsv, to_tsquery('english', :tsq))", 'text_rank')
      .andWhere("t.content_tsv @@ to_tsquery('english', :tsq)");
    this.applyFilters(matches, 't', scope, filters);
    matches.orderBy('text_rank', 'DESC').addOrderBy('t.id', 'ASC').limit(k);
    const qb = withRows(this.memories, matches.getQuery(), { ...matches.getParameters(), tsq: tsQuery, q: toVectorLiteral(embedding) }, ['text_rank'])
      .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
      .orderBy('c.text_rank', 'DESC')
      .addOrderBy('m.id', 'ASC');
    const { entities, raw } = await qb.getRawAndEntities<{ m_id: string; distance: string; text_rank: string }>();
    return withDistances(entities, raw);
  }

  /** Soft delete, scoped in the same statement. Returns the number of rows deleted (0 or 1). */
  async softDelete(scope: MemoryScope, id: string): Promise<number> {
    const qb = this.memories
      .createQueryBuilder()
      .update(MemoryEntity)
      .set({ deletedAt: () => 'now()', updatedAt: () => 'now()' });
    applyMemoryScope(qb, 'memories', scope).andWhere('memories.id = :id', { id });
    const result = await qb.execute();
    return result.affected ?? 0;
  }

  /**
   * Change visibility, only by the owning agent, in one scoped statement. Leaving
   * `restricted` drops the memory's grants, so they cannot silently apply again later.
   */
  async updateVisibilityAsOwner(scope: WorkspaceScope, id: string, visibility: MemoryVisibility): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const qb = manager
        .createQueryBuilder()
        .update(MemoryEntity)
        .set({ visibility, updatedAt: () => 'now()' });
      applyMemoryScope(qb, 'memories', scope)
        .andWhere('memories.id = :id', { id })
        .andWhere('memories.agent_id = :ownerId', { ownerId: scope.agentId });
      const result = await qb.execute();
      if (!result.affected) return false;
      if (visibility !== 'restricted') {
        await manager.query('DELETE FROM memory_visibility_grants WHERE user_id = $1 AND memory_id = $2', [scope.userId, id]);
      }
      return true;
    });
  }

  /** Ingest UPDATE: new content and vector for a row the writer may mutate. */
  async updateContentForIngest(
    scope: MemoryScope,
    id: string,
    change: { content: string; embedding: readonly number[]; importance: number; trustScore: number },
  ): Promise<number> {
    const qb = this.memories
      .createQueryBuilder()
      .update(MemoryEntity)
      .set({
        content: change.content,
        embedding: () => 'CAST(:newEmbedding AS vector)',
        importance: change.importance,
        trustScore: change.trustScore,
        updatedAt: () => 'now()',
      })
      .setParameter('newEmbedding', toVectorLiteral(change.embedding));
    applyMemoryScope(qb, 'memories', scope, { forMutation: true }).andWhere('memories.id = :id', { id });
    return (await qb.execute()).affected ?? 0;
  }

  /** Ingest SUPERSEDE: the old row stops being returned (expired_at) and points to its successor. */
  async expireForIngest(scope: MemoryScope, id: string, supersededBy: string): Promise<number> {
    const qb = this.memories
      .createQueryBuilder()
      .update(MemoryEntity)
      .set({ expiredAt: () => 'now()', supersededBy, updatedAt: () => 'now()' });
    applyMemoryScope(qb, 'memories', scope, { forMutation: true }).andWhere('memories.id = :id', { id });
    return (await qb.execute()).affected ?? 0;
  }

  /** Ingest DELETE: soft delete, under the ingest mutation rule. */
  async deleteForIngest(scope: MemoryScope, id: string): Promise<number> {
    const qb = this.memories
      .createQueryBuilder()
      .update(MemoryEntity)
      .set({ deletedAt: () => 'now()', updatedAt: () => 'now()' });
    applyMemoryScope(qb, 'memories', scope, { forMutation: true }).andWhere('memories.id = :id', { id });
    return (await qb.execute()).affected ?? 0;
  }

  /**
   * Access bookkeeping (+1 access_count, last_accessed_at) for rows just returned, scoped like
   * the read. Coalesced: one UPDATE per read made concurrent reads of the same rows queue on
   * row locks (and deadlock, two reads locking overlapping rows in different orders), each
   * holding a pool connection, until searches waited for connections (docs/benchmarks.md).
   * Requests are merged per scope and written in rounds, by one writer: a round writes what
   * gathered in the ACCESS_WRITE_DELAY_MS (50 ms) since the first request that found no round
   * scheduled, one UPDATE per scope and per distinct increment; what arrives meanwhile goes to
   * the next round. So under load, reads of the same scope share one UPDATE. Counts stay exact;
   * the promise resolves once the caller's increments are stored (AccessTracker.flush waits).
   */
  async recordAccess(scope: MemoryScope, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    return this.accessWrites.add(scope, ids);
  }

  private async writeAccess(scope: MemoryScope, counts: Map<string, number>): Promise<void> {
    const byIncrement = new Map<number, string[]>();
    for (const [id, n] of counts) {
      const ids = byIncrement.get(n);
      if (ids) ids.push(id);
      else byIncrement.set(n, [id]);
    }
    for (const [increment, ids] of byIncrement) {
      const qb = this.memories
        .createQueryBuilder()
        .update(MemoryEntity)
        .set({ accessCount: () => 'access_count + CAST(:accessIncrement AS integer)', lastAccessedAt: () => 'now()' })
        .setParameter('accessIncrement', increment);
      applyMemoryScope(qb, 'memories', scope).andWhere('memories.id = ANY(CAST(:ids AS uuid[]))', { ids: ids.sort() });
      await qb.execute();
    }
  }

  async insertEpisode(episode: EpisodeEntity): Promise<void> {
    await this.episodes.insert(episode);
  }

  async insertMemories(rows: NewMemory[]): Promise<void> {
    if (rows.length === 0) return;
    await this.memories
      .createQueryBuilder()
      .insert()
      .into(MemoryEntity)
      .values(rows as QueryDeepPartialEntity<MemoryEntity>[])
      .execute();
  }
}

/**
 * Candidates the HNSW plan takes before the exact re-sort keeps k: k + 90 (at least 2k).
 * Public for the benchmark, which sweeps it.
 */
export function hnswOverFetch(k: number): number {
  return Math.max(2 * k, k + 90);
}

function scopeKey(scope: MemoryScope, filters: SearchFilters): string {
  return JSON.stringify([scope, filters.sourceSite ?? null, filters.namespaces ?? null, filters.asOf?.toISOString() ?? null]);
}

/**
 * The full rows of the candidates a scoped subquery picked (`c`: id plus `columns`). The
 * subquery carries the visibility predicate; the join also names the caller's user_id
 * (bound by applyMemoryScope as vis_userId) so that it reads a single partition.
 */
function withRows(
  repository: Repository<MemoryEntity>,
  subquery: string,
  parameters: ObjectLiteral,
  columns: string[],
): SelectQueryBuilder<MemoryEntity> {
  const qb = repository.createQueryBuilder('m').innerJoin(`(${subquery})`, 'c', 'c.id = m.id AND m.user_id = :vis_userId');
  for (const column of columns) qb.addSelect(`c.${column}`, column);
  return qb.setParameters(parameters);
}

/** Entities with the distance (and text rank, when selected) of their raw row. */
function withDistances(entities: MemoryEntity[], raw: { m_id: string; distance: string; text_rank?: string }[]): ScoredRow[] {
  const byId = new Map(raw.map((r) => [r.m_id, r]));
  return entities.map((memory) => {
    const row = byId.get(memory.id) as (typeof raw)[number];
    return row.text_rank === undefined
      ? { memory, distance: Number(row.distance) }
      : { memory, distance: Number(row.distance), textRank: Number(row.text_rank) };
  });
}

/** A bounded set of keys that are forgotten after `ttlMs` (oldest dropped first when full). */
class ExpiringSet {
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  has(key: string): boolean {
    const until = this.expiry.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.expiry.delete(key);
    return false;
  }

  add(key: string): void {
    this.expiry.delete(key);
    if (this.expiry.size >= this.maxEntries) this.expiry.delete(this.expiry.keys().next().value as string);
    this.expiry.set(key, Date.now() + this.ttlMs);
  }
}

interface PendingAccess {
  scope: MemoryScope;
  counts: Map<string, number>;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Merges access increments per scope and writes them in rounds (see recordAccess): a round
 * starts `delayMs` after the first increment that finds no round scheduled and writes what has
 * accumulated by then, one scope at a time; increments that arrive during a round wait for the
 * next one. Each caller's promise resolves once its increments are stored.
 */
class CoalescingWriter {
  private pending = new Map<string, PendingAccess>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly write: (scope: MemoryScope, counts: Map<string, number>) => Promise<void>,
    private readonly delayMs: number,
  ) {}

  add(scope: MemoryScope, ids: readonly string[]): Promise<void> {
    const key = JSON.stringify(scope);
    let batch = this.pending.get(key);
    if (!batch) {
      batch = { scope, counts: new Map(), waiters: [] };
      this.pending.set(key, batch);
    }
    for (const id of ids) batch.counts.set(id, (batch.counts.get(id) ?? 0) + 1);
    const target = batch;
    const done = new Promise<void>((resolve, reject) => target.waiters.push({ resolve, reject }));
    this.schedule();
    return done;
  }

  private schedule(): void {
    if (this.running || this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.round();
    }, this.delayMs);
  }

  private async round(): Promise<void> {
    this.running = true;
    const batches = [...this.pending.values()];
    this.pending = new Map();
    try {
      for (const batch of batches) {
        try {
          await this.write(batch.scope, batch.counts);
          for (const w of batch.waiters) w.resolve();
        } catch (error) {
          for (const w of batch.waiters) w.reject(error);
        }
      }
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
