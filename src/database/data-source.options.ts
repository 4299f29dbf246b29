import { Logger } from '@nestjs/common';
import type { ClientBase } from 'pg';
import type { DataSourceOptions } from 'typeorm';

import { ALL_MIGRATIONS } from '../../migrations';
import type { AppEnv } from '../env/env.schema';
import type { DatabaseTarget } from './database-target';

const logger = new Logger('Database');

/**
 * Every pooled connection gets an 'error' listener for its whole life. pg-pool listens only
 * while a connection is idle; a connection that is checked out (TypeORM holds one for a
 * transaction or between the statements of a query runner) and then dies (backend
 * terminated, server restarted, network cut) emits 'error' with no listener, which Node turns
 * into an uncaught exception that ends the process. With this listener the statement in
 * flight fails (a 503 for the request), the connection is marked unusable, and pg-pool drops
 * it on release and opens a fresh one for the next request.
 */
function onConnect(client: ClientBase): void {
  client.on('error', (error: Error) => logger.warn(`database connection lost: ${error.message}`));
}

/**
 * TypeORM options shared by the app, the migration CLI and the test harness. `route` picks the
 * pooled URL (what requests use) or the direct one (migrations); on the embedded database both
 * are the same socket.
 */
export function buildDataSourceOptions(target: DatabaseTarget, env: AppEnv, route: 'pooled' | 'direct' = 'pooled'): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    synchronize: false,
    migrationsRun: false,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'atrium_migrations',
    logging: false as const,
  };
  switch (target.kind) {
    case 'postgres': {
      const direct = route === 'direct' || !target.pooled;
      const poolSize = route === 'direct' ? 2 : env.DATABASE_POOL_SIZE;
      return {
        ...common,
        url: direct ? target.directUrl : target.url,
        poolSize,
        applicationName: 'atrium',
        extra: {
          onConnect,
          max: poolSize,
          // A startup parameter: PgBouncer refuses the connection over it ("unsupported startup
          // parameter"), so through a pooler the timeout comes from the server's own settings
          // (ALTER ROLE ... SET statement_timeout, or postgresql.conf), as docs/operations.md says.
          ...(direct && env.DATABASE_STATEMENT_TIMEOUT_MS > 0 ? { statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS } : {}),
          idleTimeoutMillis: 30000,
          connectionTimeoutMillis: 10000,
        },
      };
    }
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
        extra: { onConnect, max: 1, idleTimeoutMillis: 0 },
      };
  }
}
