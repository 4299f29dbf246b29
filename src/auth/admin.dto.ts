import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { KEY_ROLES, type KeyRole } from '../common/identity/principal';
import { LowerCase, ToInt } from '../common/validation/transforms';
import { AUDIT_ACTIONS, type AuditAction } from '../database/audit/audit-log';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';

export const MAX_KEY_RATE_LIMIT = 100_000;

export class CreateApiKeyDto {
  @ApiProperty({
    type: String,
    enum: KEY_ROLES,
    description: '`agent`: one agent in one workspace; `user`: user scope, lessons, trust; `service`: any scope.',
    example: 'agent',
  })
  @IsIn(KEY_ROLES, { message: 'role must be one of agent, user, service' })
  role: KeyRole;

  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: 256,
    description: 'The user the key acts for; `*` for (and only for) a service key.',
    example: 'alice',
  })
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Required for an agent key; not allowed otherwise.',
    example: WORKSPACE_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'workspace_id must be a valid UUID' })
  @LowerCase()
  workspace_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Required for an agent key; not allowed otherwise.',
    example: AGENT_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id?: string;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 200, example: 'planner agent' })
  @IsOptional()
  @IsString({ message: 'label must be 1 to 200 characters' })
  @Length(1, 200, { message: 'label must be 1 to 200 characters' })
  label?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'In the future; omitted: the key does not expire.',
    example: '2027-01-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsString({ message: 'expires_at must be an ISO-8601 timestamp' })
  expires_at?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_KEY_RATE_LIMIT,
    description: 'Requests per minute for this key, per instance; omitted: no limit.',
    example: 600,
  })
  @IsOptional()
  @IsInt({ message: `rate_limit_per_minute must be an integer between 1 and ${MAX_KEY_RATE_LIMIT}` })
  @Min(1, { message: `rate_limit_per_minute must be an integer between 1 and ${MAX_KEY_RATE_LIMIT}` })
  @Max(MAX_KEY_RATE_LIMIT, { message: `rate_limit_per_minute must be an integer between 1 and ${MAX_KEY_RATE_LIMIT}` })
  rate_limit_per_minute?: number;
}

export class ListApiKeysQueryDto {
  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 256,
    description: 'Only the keys of this user (`*` for service keys).',
    example: 'alice',
  })
  @IsOptional()
  @IsString({ message: 'user_id must be 1 to 256 characters' })
  @Length(1, 256, { message: 'user_id must be 1 to 256 characters' })
  user_id?: string;
}

export class ApiKeyIdParams {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  @IsUUID('all', { message: 'id must be a valid UUID' })
  @LowerCase()
  id: string;
}

export const MAX_AUDIT_LIMIT = 500;

export class AuditQueryDto {
  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 256, example: 'alice' })
  @IsOptional()
  @IsString({ message: 'user_id must be 1 to 256 characters' })
  @Length(1, 256, { message: 'user_id must be 1 to 256 characters' })
  user_id?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', example: WORKSPACE_EXAMPLE })
  @IsOptional()
  @IsUUID('all', { message: 'workspace_id must be a valid UUID' })
  @LowerCase()
  workspace_id?: string;

  @ApiPropertyOptional({ type: String, enum: AUDIT_ACTIONS, example: 'memory.deleted' })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: AuditAction;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only events at or after this time.',
    example: '2026-11-23T00:00:00.000Z',
  })
  @IsOptional()
  @IsString({ message: 'since must be an ISO-8601 timestamp' })
  since?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_AUDIT_LIMIT, default: 100, example: 100 })
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: `limit must be between 1 and ${MAX_AUDIT_LIMIT}` })
  @Max(MAX_AUDIT_LIMIT, { message: `limit must be between 1 and ${MAX_AUDIT_LIMIT}` })
  limit?: number;
}

/** POST /v1/admin/erase: a user, one of its workspaces, or one agent of that workspace. */
export class EraseSubjectDto {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: 256,
    description: 'The user to erase, or whose workspace or agent.',
    example: 'alice',
  })
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Erase this workspace of the user (with agent_id: that agent in it).',
    example: WORKSPACE_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'workspace_id must be a valid UUID' })
  @LowerCase()
  workspace_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Erase this agent of the workspace (needs workspace_id).',
    example: AGENT_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id?: string;
}
