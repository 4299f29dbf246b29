import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { KEY_ROLES } from '../common/identity/principal';
import type { ApiKeyWire, AuditEventWire, CreatedApiKeyWire, WireKeyRole } from '../contract/admin-wire-types';
import type { SameKeys } from '../contract/wire-types';
import { AUDIT_ACTIONS } from '../database/audit/audit-log';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';

/** Response shapes of /v1/admin (src/auth/admin.service.ts, CONTRACT section 10). */

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDoc implements ApiKeyWire {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, enum: KEY_ROLES, example: 'agent' })
  role: WireKeyRole;

  @ApiProperty({ type: String, description: '`*` for a service key.', example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: WORKSPACE_EXAMPLE })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: AGENT_EXAMPLE })
  agent_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'planner agent' })
  label: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Per instance; null: no limit.', example: 600 })
  rate_limit_per_minute: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  revoked_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-23T12:00:00.000Z' })
  created_at: string;
}

@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeyDoc extends ApiKeyDoc implements CreatedApiKeyWire {
  @ApiProperty({ type: String, description: 'The secret, shown this once: only its hash is stored.', example: 'atr_Qm9vb...' })
  key: string;
}

@ApiSchema({ name: 'ApiKeyList' })
export class ApiKeyListDoc {
  @ApiProperty({ type: [ApiKeyDoc] })
  keys: ApiKeyDoc[];

  @ApiProperty({ type: 'integer', example: 1 })
  count: number;
}

@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDoc implements AuditEventWire {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-23T12:00:00.000Z' })
  at: string;

  @ApiProperty({ type: String, enum: AUDIT_ACTIONS, example: 'memory.deleted' })
  action: string;

  @ApiProperty({ type: String, nullable: true, example: 'alice' })
  user_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: WORKSPACE_EXAMPLE })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: AGENT_EXAMPLE })
  agent_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The key that made the change; null in AUTH_MODE=off and for the admin.',
    example: null,
  })
  key_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The memory, lesson, key or agent; the memory for grants; null for config.',
    example: UUID_EXAMPLE,
  })
  target_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: '5b0d6c1e-3f1a-4b7e-9a2d-8c4e6f1a2b3c' })
  request_id: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Ids, enum values and counts only; never content or secrets.',
    example: { visibility: 'restricted' },
  })
  detail: Record<string, unknown>;
}

@ApiSchema({ name: 'AuditEventList' })
export class AuditEventListDoc {
  @ApiProperty({ type: [AuditEventDoc] })
  events: AuditEventDoc[];

  @ApiProperty({ type: 'integer', example: 1 })
  count: number;
}

// The compiler refuses a class that drifts from its wire shape (extra or missing keys).
const _apiKeyKeys: SameKeys<ApiKeyDoc, ApiKeyWire> = true;
const _createdApiKeyKeys: SameKeys<CreatedApiKeyDoc, CreatedApiKeyWire> = true;
const _auditEventKeys: SameKeys<AuditEventDoc, AuditEventWire> = true;

@ApiSchema({ name: 'ErasureReceipt' })
export class ErasureReceiptDoc {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Rows deleted (audit events: reduced to id, at and action) per table, and tenant graphs dropped.',
    example: {
      memories: 120,
      memory_versions: 131,
      memory_visibility_grants: 2,
      lessons: 3,
      api_keys: 1,
      audit_events: 140,
      tenant_graphs: 0,
    },
  })
  erased: Record<string, number>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description:
      'What still names the subject, counted again after the deletion in the same transaction: always 0 here (otherwise the erasure rolled back and answered 409).',
    example: { memories: 0, memory_versions: 0, audit_events: 0, tenant_graphs: 0 },
  })
  residue: Record<string, number>;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T12:00:00.000Z' })
  erased_at: string;
}
