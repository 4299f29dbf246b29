import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
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

export type NewMemory = Omit<MemoryEntity, 'lastAccessedAt' | 'accessCount' | 'deletedAt' | 'expiredAt' | 'supersededBy'>;

/**
 * Data access for memories. Every method takes the caller's scope first and every query goes
 * through applyMemoryScope (database/visibility.ts): visibility is decided in SQL, and no
 * method filters rows in JavaScript afterwards.
 */
@Injectable()
export class MemoriesRepository {
  constructor(
    @InjectRepository(MemoryEntity) private readonly memories: Repository<MemoryEntity>,
    @InjectRepository(EpisodeEntity) private readonly episodes: Repository<EpisodeEntity>,
    private readonly dataSource: DataSource,
  ) {}

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

  private applyFilters(qb: SelectQueryBuilder<MemoryEntity>, scope: MemoryScope, filters: SearchFilters): void {
    if (scope.kind !== 'user') return; // spec 4.2.6: these narrow user-scope search only
    if (filters.sourceSite !== undefined) qb.andWhere('m.source_site = :f_sourceSite', { f_sourceSite: filters.sourceSite });
    if (filters.namespaces?.length) {
      qb.andWhere('m.namespace = ANY(CAST(:f_namespaces AS text[]))', { f_namespaces: filters.namespaces });
    }
    if (filters.asOf) qb.andWhere('m.created_at <= :f_asOf', { f_asOf: filters.asOf });
  }

  /**
   * Nearest visible memories by cosine distance, exact order. Runs in a short transaction so
   * the HNSW index (when the planner picks it) uses pgvector's iterative scan and keeps going
   * until `k` visible rows are found, instead of returning fewer after filtering.
   */
  async nearestVisible(scope: MemoryScope, embedding: readonly number[], k: number, filters: SearchFilters = {}): Promise<ScoredRow[]> {
    return this.dataSource.transaction(async (manager) => {
      // Transaction-local settings in one round trip: iterative index scans, exact order.
      await manager.query("SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search', $1, true)", [
        String(Math.min(1000, Math.max(40, k * 2))),
      ]);
      const qb = applyMemoryScope(manager.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope)
        .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
        .setParameter('q', toVectorLiteral(embedding));
      this.applyFilters(qb, scope, filters);
      const { entities, raw } = await qb.orderBy('distance', 'ASC').limit(k).getRawAndEntities();
      return entities.map((memory, i) => ({ memory, distance: Number(raw[i].distance) }));
    });
  }

  /** Full-text candidates (any of the query's words), ranked; with their vector distance. */
  async textMatches(
    scope: MemoryScope,
    tsQuery: string,
    embedding: readonly number[],
    k: number,
    filters: SearchFilters = {},
  ): Promise<ScoredRow[]> {
    const qb = this.scoped(scope)
      .addSelect("ts_rank_cd(m.content_tsv, to_tsquery('english', :tsq))", 'text_rank')
      .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
      .andWhere("m.content_tsv @@ to_tsquery('english', :tsq)")
      .setParameters({ tsq: tsQuery, q: toVectorLiteral(embedding) });
    this.applyFilters(qb, scope, filters);
    const { entities, raw } = await qb.orderBy('text_rank', 'DESC').addOrderBy('m.id').limit(k).getRawAndEntities();
    return entities.map((memory, i) => ({
      memory,
      distance: Number(raw[i].distance),
      textRank: Number(raw[i].text_rank),
    }));
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

  /** Access bookkeeping for rows just returned: one statement, scoped like the read. */
  async recordAccess(scope: MemoryScope, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const qb = this.memories
      .createQueryBuilder()
      .update(MemoryEntity)
      .set({ accessCount: () => 'access_count + 1', lastAccessedAt: () => 'now()' });
    applyMemoryScope(qb, 'memories', scope).andWhere('memories.id = ANY(CAST(:ids AS uuid[]))', { ids: [...ids] });
    await qb.execute();
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
