import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import type { AuditEventWire } from '../../contract/admin-wire-types';
import type { AuditAction } from './audit-log';

export interface AuditQuery {
  userId?: string;
  workspaceId?: string;
  action?: AuditAction;
  since?: Date;
  limit: number;
}

export type AuditEventRecord = AuditEventWire & { action: AuditAction };

/** Reads of the audit log (admin only). Events are only ever written by appendAuditEvent. */
@Injectable()
export class AuditEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest first; with a user, served by the (user_id, at DESC, id DESC) index. */
  async query(q: AuditQuery): Promise<AuditEventRecord[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (q.userId !== undefined) add('user_id = ?', q.userId);
    if (q.workspaceId !== undefined) add('workspace_id = ?', q.workspaceId);
    if (q.action !== undefined) add('action = ?', q.action);
    if (q.since !== undefined) add('at >= ?', q.since);
    params.push(q.limit);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows: (Omit<AuditEventRecord, 'at'> & { at: Date })[] = await this.dataSource.query(
      `SELECT id, at, action, user_id, workspace_id, agent_id, key_id, target_id, request_id, detail
         FROM audit_events ${where} ORDER BY at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  }
}
