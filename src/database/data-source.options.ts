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
      // One pooled connection. PGlite runs one backend for every socket connection, and its
      // socket server queues protocol messages, not whole Parse/Bind/Execute cycles: two
      // connections with queries in flight at once can interleave and break each other's
      // unnamed statements. One connection serialises them in the pool instead, which costs
      // nothing (the backend is single-threaded anyway).
      return {
        ...common,
        host: target.embedded.host,
        port: target.embedded.port,
        username: target.embedded.username,
        database: target.embedded.database,
        poolSize: 1,
        extra: { max: 1, idleTimeoutMillis: 0 },
      };
  }
}
