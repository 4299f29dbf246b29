import { Body, Controller, Delete, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';

import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { CreateGrantDto, GrantParams, MemoryIdParams, OwnerScopeQueryDto } from './dto/memory-id.dto';
import { GrantsService } from './grants.service';

@Controller('v1/memories/:id/grants')
@UseGuards(WorkspaceAgentGuard)
export class GrantsController {
  constructor(private readonly grants: GrantsService) {}

  /** 201 for a new grant, 200 when it already existed (idempotent). */
  @Post()
  async create(
    @Scope() scope: MemoryScope,
    @Param() p: MemoryIdParams,
    @Body() dto: CreateGrantDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, body } = await this.grants.grant(scope, p.id, dto.grantee_agent_id);
    res.status(created ? 201 : 200);
    return body;
  }

  @Get()
  list(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() _q: OwnerScopeQueryDto) {
    return this.grants.list(scope, p.id);
  }

  @Delete(':grantee_agent_id')
  revoke(@Scope() scope: MemoryScope, @Param() p: GrantParams, @Query() _q: OwnerScopeQueryDto) {
    return this.grants.revoke(scope, p.id, p.grantee_agent_id);
  }
}
