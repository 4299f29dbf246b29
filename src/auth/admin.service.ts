import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { ApiKeyWire, CreatedApiKeyWire } from '../contract/admin-wire-types';
import type { ErasureSubject } from '../database/access/erasure';
import { ErasureResidueError, MemoryAccess } from '../database/access/memory-access';
import { ApiKeysRepository, type ApiKeyRow } from '../database/api-keys.repository';
import { AuditEventsRepository, type AuditEventRecord } from '../database/audit/audit-events.repository';
import type { AuditQueryDto, CreateApiKeyDto, EraseSubjectDto } from './admin.dto';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { mintApiKey } from './api-key-secret';

export type ApiKeyRecord = ApiKeyWire;

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  role: row.role,
  user_id: row.user_id,
  workspace_id: row.workspace_id,
  agent_id: row.agent_id,
  label: row.label,
  expires_at: iso(row.expires_at),
  rate_limit_per_minute: row.rate_limit_per_minute,
  revoked_at: iso(row.revoked_at),
  created_at: iso(row.created_at) as string,
});

const invalid = (message: string): never => {
  throw new DomainError('VALIDATION_FAILED', message);
};

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO-8601 timestamp with a time zone, or a 400 naming the field. */
export function parseTimestamp(value: string, field: string): Date {
  const date = new Date(value);
  if (!ISO_TIMESTAMP.test(value) || Number.isNaN(date.getTime())) invalid(`${field} must be an ISO-8601 timestamp`);
  return date;
}

/** Key creation rules per role (CONTRACT section 10), then the audited writes. */
@Injectable()
export class AdminService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly audit: AuditEventsRepository,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly access: MemoryAccess,
  ) {}

  /** POST /v1/admin/erase (CONTRACT section 13): one transaction, the receipt, or 409 when residue was left. */
  async erase(
    dto: EraseSubjectDto,
    actor: Actor,
  ): Promise<{ erased: Record<string, number>; residue: Record<string, number>; erased_at: string }> {
    let subject: ErasureSubject;
    if (dto.agent_id !== undefined) {
      if (dto.workspace_id === undefined) throw new DomainError('ERASURE_AGENT_NEEDS_WORKSPACE');
      subject = { kind: 'agent', userId: dto.user_id, workspaceId: dto.workspace_id, agentId: dto.agent_id };
    } else if (dto.workspace_id !== undefined) {
      subject = { kind: 'workspace', userId: dto.user_id, workspaceId: dto.workspace_id };
    } else {
      subject = { kind: 'user', userId: dto.user_id };
    }
    try {
      const receipt = await this.access.erase(subject, actor);
      return { erased: receipt.erased, residue: receipt.residue, erased_at: receipt.erasedAt.toISOString() };
    } catch (error) {
      // The residue's counts (table -> rows left; no ids) say where the erasure fell short.
      if (error instanceof ErasureResidueError) throw new DomainError('ERASURE_RESIDUE', undefined, { residue: error.receipt.residue });
      throw error;
    }
  }

  async createKey(dto: CreateApiKeyDto, actor: Actor): Promise<CreatedApiKeyWire> {
    this.checkRoleFields(dto);
    let expiresAt: Date | null = null;
    if (dto.expires_at !== undefined) {
      expiresAt = parseTimestamp(dto.expires_at, 'expires_at');
      if (expiresAt.getTime() <= Date.now()) invalid('expires_at must be in the future');
    }
    const minted = mintApiKey();
    const row = await this.keys.create(
      {
        id: randomUUID(),
        role: dto.role,
        userId: dto.user_id,
        workspaceId: dto.workspace_id ?? null,
        agentId: dto.agent_id ?? null,
        label: dto.label ?? null,
        expiresAt,
        rateLimitPerMinute: dto.rate_limit_per_minute ?? null,
        keyHash: minted.hash,
        keyPrefix: minted.prefix,
      },
      actor,
    );
    const { revoked_at: _revoked, ...record } = toRecord(row);
    return { ...record, key: minted.key, revoked_at: null };
  }

  private checkRoleFields(dto: CreateApiKeyDto): void {
    switch (dto.role) {
      case 'agent':
        if (dto.user_id === '*') invalid('user_id "*" is only allowed for a service key');
        if (dto.workspace_id === undefined || dto.agent_id === undefined)
          invalid('workspace_id and agent_id are required for an agent key');
        return;
      case 'user':
        if (dto.user_id === '*') invalid('user_id "*" is only allowed for a service key');
        if (dto.workspace_id !== undefined || dto.agent_id !== undefined)
          invalid('workspace_id and agent_id are only allowed for an agent key');
        return;
      case 'service':
        if (dto.user_id !== '*') invalid('user_id must be "*" for a service key');
        if (dto.workspace_id !== undefined || dto.agent_id !== undefined)
          invalid('workspace_id and agent_id are only allowed for an agent key');
        return;
      default:
        return assertNever(dto.role);
    }
  }

  async listKeys(userId: string | undefined): Promise<{ keys: ApiKeyRecord[]; count: number }> {
    const keys = (await this.keys.list(userId)).map(toRecord);
    return { keys, count: keys.length };
  }

  async revokeKey(id: string, actor: Actor): Promise<{ success: true }> {
    if (!(await this.keys.revoke(id, actor))) throw new DomainError('KEY_NOT_FOUND');
    // This instance forgets it at once; the others refuse it on its next use all the same,
    // since every route either reads the key row or re-checks it in its statement.
    this.authenticator.forget(id);
    return { success: true };
  }

  async auditEvents(q: AuditQueryDto): Promise<{ events: AuditEventRecord[]; count: number }> {
    const events = await this.audit.query({
      userId: q.user_id,
      workspaceId: q.workspace_id,
      action: q.action,
      since: q.since === undefined ? undefined : parseTimestamp(q.since, 'since'),
      limit: q.limit ?? 100,
    });
    return { events, count: events.length };
  }
}
