import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import type { Actor } from '../common/identity/principal';
import { appendAuditEvent } from './audit/audit-log';

/** The stored changes, as validated by the settings module (settings/runtime-config.ts). */
type RuntimeConfigChanges = Record<string, unknown>;

/** The channel a config change is announced on; the payload is the new version. */
export const RUNTIME_CONFIG_CHANNEL = 'atrium_runtime_config';

/** The shared row: the fields changed at runtime (wire names) and how many changes so far. */
export interface StoredRuntimeConfig {
  version: number;
  changes: RuntimeConfigChanges;
}

interface Row {
  version: string | number;
  settings: RuntimeConfigChanges | null;
}

const toStored = (row: Row | undefined): StoredRuntimeConfig => {
  if (!row) throw new Error('runtime_config has no row: run the migrations');
  return { version: Number(row.version), changes: row.settings ?? {} };
};

/**
 * The runtime config in PostgreSQL (migration 1763700006000), shared by every instance. A write
 * merges the changes into the row, raises the version and announces it with NOTIFY, in one
 * transaction: listeners hear of it only once it is committed, and two concurrent writes are
 * serialised by the row lock, each raising the version by one.
 */
@Injectable()
export class RuntimeConfigStore {
  constructor(private readonly dataSource: DataSource) {}

  async read(): Promise<StoredRuntimeConfig> {
    const rows: Row[] = await this.dataSource.query('SELECT version, settings FROM runtime_config WHERE id = 1');
    return toStored(rows[0]);
  }

  async readVersion(): Promise<number> {
    const rows: Row[] = await this.dataSource.query('SELECT version FROM runtime_config WHERE id = 1');
    return toStored(rows[0]).version;
  }

  /** The change and its `config.changed` audit event, in one transaction. */
  async write(changes: RuntimeConfigChanges, actor: Actor): Promise<StoredRuntimeConfig> {
    return this.dataSource.transaction(async (manager) => {
      const rows: Row[] = await manager.query(
        `WITH changed AS (
           UPDATE runtime_config
              SET settings = settings || CAST($1 AS jsonb), version = version + 1, updated_at = now()
            WHERE id = 1
        RETURNING version, settings)
         SELECT version, settings FROM changed`,
        [JSON.stringify(changes)],
      );
      const stored = toStored(rows[0]);
      await appendAuditEvent(manager, actor, {
        action: 'config.changed',
        userId: null,
        targetId: null,
        detail: { fields: Object.keys(changes), version: stored.version },
      });
      await manager.query('SELECT pg_notify($1, $2)', [RUNTIME_CONFIG_CHANNEL, String(stored.version)]);
      return stored;
    });
  }
}
