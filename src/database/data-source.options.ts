import type { DataSourceOptions } from 'typeorm';

import { ALL_MIGRATIONS } from '../../migrations';
import type { AppEnv } from '../env/env.schema';
import type { DatabaseTarget } from './database-target';

/** TypeORM options shared by the app, the migration CLI and the test harness. */
export function buildDataSourceOptions(target: DatabaseTarget, env: AppEnv): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    synchronize: false,
    migrationsRun: false,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'atrium_migrations',
    logging: false as const,
  };
  switch (target.kind) {
    case 'postgres':
      return {
        ...common,
        url: target.url,
        poolSize: env.DATABASE_POOL_SIZE,
        applicationName: 'atrium',
        extra: {
          max: env.DATABASE_POOL_SIZE,
          ...(env.DATABASE_STATEMENT_TIMEOUT_MS > 0 ? { statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS } : {}),
          idleTimeoutMillis: 30000,
          connectionTimeoutMillis: 10000,
        },
      };
    case 'embedded':
      // One WASM backend serves every socket connection, one query at a time; a small pool
      // is enough and keeps the socket server's queue short.
      return {
        ...common,
        host: target.embedded.host,
        port: target.embedded.port,
        username: target.embedded.username,
        database: target.embedded.database,
        poolSize: Math.min(env.DATABASE_POOL_SIZE, 8),
        extra: { max: Math.min(env.DATABASE_POOL_SIZE, 8), idleTimeoutMillis: 0 },
      };
  }
}
