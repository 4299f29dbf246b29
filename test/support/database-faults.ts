import { Client } from 'pg';
import type { DataSource } from 'typeorm';

import type { TestDatabase } from './test-database';

interface PoolClientInternals {
  connection?: { stream?: { destroy(): void } };
}

/**
 * Kill the service's database connections for real, as a failing network or an operator
 * would: on PostgreSQL pg_terminate_backend on every other backend of the test database; on
 * the embedded database (one process, no separate server) the pool's sockets are destroyed
 * under it. Returns how many connections were killed.
 */
export async function killDatabaseConnections(db: TestDatabase, dataSource: DataSource): Promise<number> {
  if (db.url) {
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      const rows = await admin.query(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      return rows.rows.filter((r: { killed: boolean }) => r.killed).length;
    } finally {
      await admin.end();
    }
  }
  const pool = (dataSource.driver as unknown as { master: { _clients: PoolClientInternals[] } }).master;
  const clients = [...pool._clients];
  for (const client of clients) client.connection?.stream?.destroy();
  return clients.length;
}
