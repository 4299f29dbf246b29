import { Body, Controller, Delete, Get, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import type { WorkspaceScope } from '../common/scope/memory-scope';
import { WorkspaceOnly } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { CreateGrantDto, GrantParams, MemoryIdParams } from '../memories/dto/memory-id.dto';
import { OwnerScopeQuery } from '../memories/dto/scope-query';
import { ApiErrors, ApiInternalError, ApiKeyAuth, SCOPE_ERRORS } from '../openapi/api-errors';
import { SuccessDoc } from '../openapi/success.responses';
import { GrantDoc, GrantListDoc } from './grants.responses';
import { GrantsService } from './grants.service';

const OWNER_ERRORS = ['id must be a valid UUID', ...SCOPE_ERRORS];

@ApiTags('Grants')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories/:id/grants')
@UseGuards(WorkspaceAgentGuard)
export class GrantsController {
  constructor(private readonly grants: GrantsService) {}

  /** 201 for a new grant, 200 when it already existed (idempotent). */
  @Post()
  @ApiOperation({
    summary: 'Grant an agent access to a restricted memory',
    description: 'Owning agent only. Idempotent: 201 for a new grant, 200 when it already existed. Takes effect on the next read.',
  })
  @ApiCreatedResponse({ type: GrantDoc, description: 'Grant created.' })
  @ApiOkResponse({ type: GrantDoc, description: 'The grant already existed.' })
  @ApiErrors({
    400: [...OWNER_ERRORS, 'grantee_agent_id must be a valid UUID'],
    errors: ['GRANTS_NEED_WORKSPACE', 'NOT_GRANT_OWNER', 'SCOPE_MISMATCH', 'MEMORY_NOT_FOUND', 'GRANT_NEEDS_RESTRICTED'],
    body: true,
  })
  async create(
    @Param() p: MemoryIdParams,
    @Body() dto: CreateGrantDto,
    @WorkspaceOnly('GRANTS_NEED_WORKSPACE') scope: WorkspaceScope,
    @Res({ passthrough: true }) res: Response,
    @CallerActor() actor: Actor,
  ) {
    const { created, body } = await this.grants.grant(scope, p.id, dto.grantee_agent_id, actor);
    res.status(created ? 201 : 200);
    return body;
  }

  @Get()
  @ApiOperation({ summary: 'List the grants of a memory', description: 'Owning agent only.' })
  @ApiOkResponse({ type: GrantListDoc, description: 'The grants of the memory.' })
  @ApiErrors({ 400: OWNER_ERRORS, errors: ['GRANTS_NEED_WORKSPACE', 'NOT_GRANT_OWNER', 'SCOPE_MISMATCH', 'MEMORY_NOT_FOUND'] })
  list(@Param() p: MemoryIdParams, @OwnerScopeQuery('GRANTS_NEED_WORKSPACE') scope: WorkspaceScope) {
    return this.grants.list(scope, p.id);
  }

  @Delete(':grantee_agent_id')
  @ApiOperation({ summary: 'Revoke a grant', description: 'Owning agent only. Takes effect on the next read.' })
  @ApiOkResponse({ type: SuccessDoc, description: 'Revoked.' })
  @ApiErrors({
    400: [...OWNER_ERRORS, 'grantee_agent_id must be a valid UUID'],
    errors: ['GRANTS_NEED_WORKSPACE', 'NOT_GRANT_OWNER', 'SCOPE_MISMATCH', 'MEMORY_NOT_FOUND', 'GRANT_NOT_FOUND'],
  })
  revoke(@Param() p: GrantParams, @OwnerScopeQuery('GRANTS_NEED_WORKSPACE') scope: WorkspaceScope, @CallerActor() actor: Actor) {
    return this.grants.revoke(scope, p.id, p.grantee_agent_id, actor);
  }
}
