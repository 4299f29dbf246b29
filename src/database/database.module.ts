import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';

import { configuredIdentity } from '../embeddings/embedding-identity';
import type { AppEnv } from '../env/env.schema';
import { buildDataSourceOptions } from './data-source.options';
import { closeDatabaseTarget, DATABASE_TARGET, openDatabaseTarget, type DatabaseTarget } from './database-target';
import { NamedStatements } from './named-statements';
import { DatabaseStartupError } from './pgvector';
import { prepareDatabase, type PrepareOptions } from './prepare-database';

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

async function prepareDirect(target: DatabaseTarget, env: AppEnv, options: PrepareOptions): Promise<void> {
  const direct = new DataSource(buildDataSourceOptions(target, env, 'direct'));
  await direct.initialize();
  try {
    await prepareDatabase(direct, options);
  } finally {
    await direct.destroy();
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(env: AppEnv): DynamicModule {
    const targetModule = DatabaseTargetModule.forRoot(env);
    let opened: DatabaseTarget | undefined;
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        targetModule,
        TypeOrmModule.forRootAsync({
          imports: [targetModule],
          inject: [DATABASE_TARGET],
          useFactory: (target: DatabaseTarget) => {
            opened = target;
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
            const target = opened as DatabaseTarget;
            const prepare = {
              where: target.description,
              embeddingDimensions: env.EMBEDDING_DIMENSIONS,
              embeddingIdentity: configuredIdentity(env),
            };
            // Behind a pooler, migrations (and their session advisory lock) go direct first.
            if (target.kind === 'postgres' && target.pooled) await prepareDirect(target, env, prepare);
            const dataSource = new DataSource(options as DataSourceOptions);
            await dataSource.initialize();
            try {
              if (target.kind === 'embedded' || !target.pooled) await prepareDatabase(dataSource, prepare);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [DatabaseLifecycle, NamedStatements],
      exports: [NamedStatements],
    };
  }
}
