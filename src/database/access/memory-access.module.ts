import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

import type { AppConfig } from '../../env/app-config';
import { DATABASE_TARGET, type DatabaseTarget } from '../database-target';
import { EpisodeEntity } from '../entities/episode.entity';
import { LessonEntity } from '../entities/lesson.entity';
import { MemoryEntity } from '../entities/memory.entity';
import { VisibilityGrantEntity } from '../entities/visibility-grant.entity';
import { ExpiryPurge } from '../maintenance/expiry-purge';
import { TenantGraphMaintainer } from '../maintenance/tenant-graph-maintainer';
import { TermStatsCompactor } from '../maintenance/term-stats-compactor';
import { hnswPoolSettings } from './hnsw-settings';
import { MemoryAccess } from './memory-access';
import { openStatementPool } from './statement-pool';

/**
 * Registers the tenant entities and provides MemoryAccess, the one door into their tables,
 * to the memories and lessons modules. The TypeORM repositories are not exported.
 */
/** The named statements' own connections (statement-pool.ts), when they are on; closed at shutdown. */
const STATEMENT_POOLS = Symbol('STATEMENT_POOLS');

interface StatementPools {
  /** Generic-planned shapes: search, text and record reads. */
  statements: Pool;
  /**
   * The HNSW plan of large scopes, its settings for the whole session: one pool for
   * search/fast's tuning and, when it differs, one for /search's fusion candidates.
   */
  indexed: { pool: Pool; settings: Record<string, string> }[];
}

@Injectable()
class StatementPoolLifecycle implements OnApplicationShutdown {
  constructor(@Inject(STATEMENT_POOLS) private readonly pools: StatementPools | null) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pools?.statements.end(), ...(this.pools?.indexed ?? []).map((indexed) => indexed.pool.end())]);
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([MemoryEntity, EpisodeEntity, VisibilityGrantEntity, LessonEntity])],
  providers: [
    {
      provide: STATEMENT_POOLS,
      // Named prepared statements on a direct connection to a real server only: not behind a
      // pooler (DATABASE_DIRECT_URL differs: a transaction-mode PgBouncer keeps neither named
      // statements nor the startup options that set these sessions up), and not on the
      // embedded database (one backend serves every socket connection, where one client's
      // statement names would collide with another's).
      useFactory: (dataSource: DataSource, config: AppConfig, target: DatabaseTarget): StatementPools | null => {
        if (target.kind !== 'postgres' || target.pooled || !config.get('DATABASE_PREPARED_STATEMENTS', { infer: true })) return null;
        const sessions = hnswPoolSettings(
          config.get('SEARCH_HNSW_EF_SEARCH', { infer: true }),
          config.get('SEARCH_FUSION_HNSW_EF_SEARCH', { infer: true }),
        );
        return {
          statements: openStatementPool(dataSource),
          indexed: sessions.map((settings) => ({ pool: openStatementPool(dataSource, {}, settings), settings })),
        };
      },
      inject: [DataSource, ConfigService, DATABASE_TARGET],
    },
    StatementPoolLifecycle,
    TenantGraphMaintainer,
    ExpiryPurge,
    TermStatsCompactor,
    {
      provide: MemoryAccess,
      useFactory: (dataSource: DataSource, pools: StatementPools | null) =>
        new MemoryAccess(dataSource, undefined, { statementPool: pools?.statements ?? null, indexedPools: pools?.indexed ?? [] }),
      inject: [DataSource, STATEMENT_POOLS],
    },
  ],
  exports: [MemoryAccess, TenantGraphMaintainer, ExpiryPurge, TermStatsCompactor],
})
export class MemoryAccessModule {}
