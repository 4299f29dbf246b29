import { Body, Controller, Delete, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { CreateGrantDto, GrantParams, MemoryIdParams, OwnerScopeQueryDto } from '../memories/dto/memory-id.dto';
import { ApiErrors, ApiInternalError, ApiKeyAuth, SCOPE_ERRORS, SCOPE_MISMATCH_MESSAGE } from '../openapi/api-errors';
import { SuccessDoc } from '../openapi/success.responses';
import { GrantDoc, GrantListDoc } from './grants.responses';
import { GrantsService } from './grants.service';

const OWNER_ERRORS = ['id must be a valid UUID', ...SCOPE_ERRORS, 'workspace_id is required: grants exist only for workspace memories'];
const NOT_OWNER = ['Only the owning agent may manage grants', SCOPE_MISMATCH_MESSAGE];

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
    403: NOT_OWNER,
    404: ['Memory not found'],
    409: ['Grants apply only to restricted memories: set visibility to restricted first'],
    body: true,
  })
  async create(
    @Scope() scope: MemoryScope,
    @Param() p: MemoryIdParams,
    @Body() dto: CreateGrantDto,
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
  @ApiErrors({ 400: OWNER_ERRORS, 403: NOT_OWNER, 404: ['Memory not found'] })
  list(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() _q: OwnerScopeQueryDto) {
    return this.grants.list(scope, p.id);
  }

  @Delete(':grantee_agent_id')
  @ApiOperation({ summary: 'Revoke a grant', description: 'Owning agent only. Takes effect on the next read.' })
  @ApiOkResponse({ type: SuccessDoc, description: 'Revoked.' })
  @ApiErrors({
    400: [...OWNER_ERRORS, 'grantee_agent_id must be a valid UUID'],
    403: NOT_OWNER,
    404: ['Memory not found', 'Grant not found'],
  })
  revoke(@Scope() scope: MemoryScope, @Param() p: GrantParams, @Query() _q: OwnerScopeQueryDto, @CallerActor() actor: Actor) {
    return this.grants.revoke(scope, p.id, p.grantee_agent_id, actor);
  }
}
