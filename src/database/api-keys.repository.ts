import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import type { Actor, KeyRole } from '../common/identity/principal';
import { SUBJECT_LOCK_KEY } from './access/erasure';
import { appendAuditEvent } from './audit/audit-log';
import { NamedStatements } from './named-statements';

export interface ApiKeyRow {
  id: string;
  role: KeyRole;
  user_id: string;
  workspace_id: string | null;
  agent_id: string | null;
  label: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  rate_limit_per_minute: number | null;
  created_at: Date;
}

export interface StoredKeyForLookup extends ApiKeyRow {
  key_hash: Buffer;
}

export interface NewApiKey {
  id: string;
  role: KeyRole;
  userId: string;
  workspaceId: string | null;
  agentId: string | null;
  label: string | null;
  expiresAt: Date | null;
  rateLimitPerMinute: number | null;
  keyHash: Buffer;
  keyPrefix: string;
}

const COLUMNS = 'id, role, user_id, workspace_id, agent_id, label, expires_at, revoked_at, rate_limit_per_minute, created_at';

/** api_keys: lookups by prefix for authentication, and the admin's create/list/revoke (audited). */
@Injectable()
export class ApiKeysRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: NamedStatements,
  ) {}

  /** The key with this lookup prefix (one unique-index probe), revoked or not. Runs on every authenticated request. */
  async findByPrefix(prefix: string): Promise<StoredKeyForLookup | null> {
    const text = `SELECT ${COLUMNS}, key_hash FROM api_keys WHERE key_prefix = $1`;
    const [row] = await this.statements.rows<StoredKeyForLookup>('atrium_api_key_by_prefix', text, [prefix]);
    return row ?? null;
  }

  async create(key: NewApiKey, actor: Actor): Promise<ApiKeyRow> {
    return this.dataSource.transaction(async (manager) => {
      // The user's subject lock, shared: an erasure of the user under way finishes first (access/erasure.ts).
      await manager.query(`SELECT pg_advisory_xact_lock_shared(${SUBJECT_LOCK_KEY('$1')})`, [key.userId]);
      const [row]: ApiKeyRow[] = await manager.query(
        `INSERT INTO api_keys (id, role, user_id, workspace_id, agent_id, label, key_hash, key_prefix, expires_at, rate_limit_per_minute)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [
          key.id,
          key.role,
          key.userId,
          key.workspaceId,
          key.agentId,
          key.label,
          key.keyHash,
          key.keyPrefix,
          key.expiresAt,
          key.rateLimitPerMinute,
        ],
      );
      await appendAuditEvent(manager, actor, {
        action: 'key.created',
        userId: key.userId,
        workspaceId: key.workspaceId,
        agentId: key.agentId,
        targetId: key.id,
        detail: { role: key.role },
      });
      return row;
    });
  }

  async list(userId: string | undefined): Promise<ApiKeyRow[]> {
    if (userId === undefined) return this.dataSource.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at DESC, id DESC`);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id DESC`, [userId]);
  }

  /** Revoke (kept for the audit trail). False when no unrevoked key has that id. */
  async revoke(id: string, actor: Actor): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // (A CTE so the result is plain rows: TypeORM returns [rows, count] for a bare UPDATE.)
      const rows: { user_id: string; workspace_id: string | null; agent_id: string | null }[] = await manager.query(
        `WITH revoked AS (
           UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING user_id, workspace_id, agent_id)
         SELECT user_id, workspace_id, agent_id FROM revoked`,
        [id],
      );
      if (rows.length === 0) return false;
      await appendAuditEvent(manager, actor, {
        action: 'key.revoked',
        userId: rows[0].user_id,
        workspaceId: rows[0].workspace_id,
        agentId: rows[0].agent_id,
        targetId: id,
      });
      return true;
    });
  }
}
