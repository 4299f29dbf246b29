import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import { Access } from '../common/identity/route-access';
import { ADMIN_SECURITY, ApiAdminErrors, ApiErrors, ApiInternalError } from '../openapi/api-errors';
import { SuccessDoc } from '../openapi/success.responses';
import { ApiKeyIdParams, AuditQueryDto, CreateApiKeyDto, EraseSubjectDto, ListApiKeysQueryDto, MAX_AUDIT_LIMIT } from './admin.dto';
import { ApiKeyListDoc, AuditEventListDoc, CreatedApiKeyDoc, ErasureReceiptDoc } from './admin.responses';
import { AdminService } from './admin.service';

/** Keys and the audit log; the admin token only, in both modes (404 without ATRIUM_ADMIN_TOKEN). */
@ApiTags('Admin')
@ApiBearerAuth(ADMIN_SECURITY)
@ApiAdminErrors()
@ApiInternalError()
@Access('admin')
@Controller('v1/admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key', description: 'The `key` is in this response only; only its SHA-256 is stored.' })
  @ApiCreatedResponse({ type: CreatedApiKeyDoc, description: 'The key, with its secret (shown once).' })
  @ApiErrors({
    400: [
      'role must be one of agent, user, service',
      'user_id (string) is required',
      'workspace_id and agent_id are required for an agent key',
      'user_id "*" is only allowed for a service key',
      'user_id must be "*" for a service key',
      'expires_at must be an ISO-8601 timestamp',
      'expires_at must be in the future',
    ],
    body: true,
  })
  createKey(@Body() dto: CreateApiKeyDto, @CallerActor() actor: Actor) {
    return this.admin.createKey(dto, actor);
  }

  @Get('keys')
  @ApiOperation({ summary: 'List API keys', description: 'Newest first; never the secret.' })
  @ApiOkResponse({ type: ApiKeyListDoc, description: 'The keys (revoked ones too, with revoked_at).' })
  @ApiErrors({ 400: ['user_id must be 1 to 256 characters'] })
  listKeys(@Query() q: ListApiKeysQueryDto) {
    return this.admin.listKeys(q.user_id);
  }

  @Delete('keys/:id')
  @ApiOperation({ summary: 'Revoke an API key', description: 'Takes effect on the very next request.' })
  @ApiOkResponse({ type: SuccessDoc, description: 'Revoked.' })
  @ApiErrors({ 400: ['id must be a valid UUID'], errors: ['KEY_NOT_FOUND'] })
  revokeKey(@Param() p: ApiKeyIdParams, @CallerActor() actor: Actor) {
    return this.admin.revokeKey(p.id, actor);
  }

  @Post('erase')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Erase a user, a workspace or an agent for good',
    description:
      'One transaction: deletes (not soft-deletes) the memories and their vectors, versions, access counts, grants given ' +
      "by and to the subject, episodes, the lessons of an erased user and the erased memories among other lessons' sources, " +
      'trust rows and API keys; reduces its audit events to id, at and action; drops the per-scope vector index of an erased ' +
      "scope; then counts the residue again in every table that can hold the subject's ids and rolls back (409) if any remains. " +
      'Audited as `subject.erased`, with counts and no ids.',
  })
  @ApiOkResponse({ type: ErasureReceiptDoc, description: 'The receipt: what was erased, and the residue counted afterwards (all 0).' })
  @ApiErrors({
    400: ['user_id (string) is required', 'workspace_id must be a valid UUID', 'agent_id must be a valid UUID'],
    errors: ['ERASURE_AGENT_NEEDS_WORKSPACE', 'ERASURE_RESIDUE'],
    body: true,
  })
  erase(@Body() dto: EraseSubjectDto, @CallerActor() actor: Actor) {
    return this.admin.erase(dto, actor);
  }

  @Get('audit')
  @ApiOperation({ summary: 'Query the audit log', description: `Newest first; limit 1..${MAX_AUDIT_LIMIT}, default 100.` })
  @ApiOkResponse({ type: AuditEventListDoc, description: 'The matching events.' })
  @ApiErrors({
    400: [
      'workspace_id must be a valid UUID',
      'action must be one of memory.stored, ...',
      'since must be an ISO-8601 timestamp',
      `limit must be between 1 and ${MAX_AUDIT_LIMIT}`,
    ],
  })
  audit(@Query() q: AuditQueryDto) {
    return this.admin.auditEvents(q);
  }
}
