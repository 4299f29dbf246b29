import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

import { LessonEntity } from '../../lessons/lesson.entity';
import { EpisodeEntity } from '../../memories/episode.entity';
import { MemoryEntity } from '../../memories/memory.entity';
import { VisibilityGrantEntity } from '../../memories/visibility-grant.entity';
import type { AppConfig } from '../../env/app-config';
import { DATABASE_TARGET, type DatabaseTarget } from '../database-target';
import { MemoryAccess } from './memory-access';
import { openStatementPool } from './statement-pool';

/**
 * Registers the tenant entities and provides MemoryAccess, the one door into their tables,
 * to the memories and lessons modules. The TypeORM repositories are not exported.
 */
/** The named statements' own connections (statement-pool.ts), when they are on; closed at shutdown. */
const STATEMENT_POOL = Symbol('STATEMENT_POOL');

@Injectable()
class StatementPoolLifecycle implements OnApplicationShutdown {
  constructor(@Inject(STATEMENT_POOL) private readonly pool: Pool | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.end();
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([MemoryEntity, EpisodeEntity, VisibilityGrantEntity, LessonEntity])],
  providers: [
    {
      provide: STATEMENT_POOL,
      // Named prepared statements on a direct connection to a real server only: not behind a
      // pooler (DATABASE_DIRECT_URL differs: a transaction-mode PgBouncer keeps neither named
      // statements nor the startup option that forces generic plans), and not on the embedded
      // database (one backend serves every socket connection, where one client's statement
      // names would collide with another's).
      useFactory: (dataSource: DataSource, config: AppConfig, target: DatabaseTarget): Pool | null =>
        target.kind === 'postgres' && !target.pooled && config.get('DATABASE_PREPARED_STATEMENTS', { infer: true })
          ? openStatementPool(dataSource)
          : null,
      inject: [DataSource, ConfigService, DATABASE_TARGET],
    },
    StatementPoolLifecycle,
    {
      provide: MemoryAccess,
      useFactory: (dataSource: DataSource, statementPool: Pool | null) => new MemoryAccess(dataSource, undefined, { statementPool }),
      inject: [DataSource, STATEMENT_POOL],
    },
  ],
  exports: [MemoryAccess],
})
export class MemoryAccessModule {}
