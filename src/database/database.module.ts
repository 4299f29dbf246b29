import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';

import type { AppEnv } from '../env/env.schema';
import { buildDataSourceOptions } from './data-source.options';
import { closeDatabaseTarget, DATABASE_TARGET, openDatabaseTarget, type DatabaseTarget } from './database-target';
import { DatabaseStartupError } from './pgvector';
import { prepareDatabase } from './prepare-database';

/**
 * Closes the pool before the embedded database under it. Nest runs shutdown hooks module by
 * module, so this does both in the right order itself (TypeORM's own hook then finds the
 * data source already closed).
 */
@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await closeDatabaseTarget(this.target);
    this.logger.log(`closed ${this.target.description}`);
  }
}

@Global()
@Module({})
class DatabaseTargetModule {
  static forRoot(env: AppEnv): DynamicModule {
    return {
      module: DatabaseTargetModule,
      providers: [{ provide: DATABASE_TARGET, useFactory: () => openDatabaseTarget(env) }],
      exports: [DATABASE_TARGET],
    };
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(env: AppEnv): DynamicModule {
    const targetModule = DatabaseTargetModule.forRoot(env);
    let where = 'the database';
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        targetModule,
        TypeOrmModule.forRootAsync({
          imports: [targetModule],
          inject: [DATABASE_TARGET],
          useFactory: (target: DatabaseTarget) => {
            where = target.description;
            return {
              ...buildDataSourceOptions(target, env),
              autoLoadEntities: true,
              retryAttempts: 5,
              retryDelay: 2000,
              // A missing extension or a dimension mismatch will not fix itself.
              toRetry: (error: unknown) => !(error instanceof DatabaseStartupError),
            };
          },
          dataSourceFactory: async (options?: DataSourceOptions) => {
            const dataSource = new DataSource(options as DataSourceOptions);
            await dataSource.initialize();
            try {
              await prepareDatabase(dataSource, { where, embeddingDimensions: env.EMBEDDING_DIMENSIONS });
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [DatabaseLifecycle],
    };
  }
}
