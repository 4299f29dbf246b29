import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { toTimestamp } from '../common/validation/timestamp';
import type { MemoryHistoryWire } from '../contract/wire-types';
import { VISIBILITY_MODES_MESSAGE } from '../database/access/visibility';
import { ApiErrors, ApiInternalError, ApiKeyAuth, READ_SCOPE_ERRORS, SCOPE_ERRORS } from '../openapi/api-errors';
import { SuccessDoc } from '../openapi/success.responses';
import { ExpandDto } from './dto/expand.dto';
import { ListQueryDto } from './dto/list-query.dto';
import { GetQueryDto, MemoryIdParams, UpdateMemoryDto } from './dto/memory-id.dto';
import { ScopeQuery } from './dto/scope-query';
import { MemoriesService } from './memories.service';
import type { MemoryRecord } from './memory.mapper';
import { ExpandResponseDoc, ListResponseDoc, MemoryHistoryDoc, MemoryRecordDoc } from './memory.responses';

type MemoryHistory = MemoryHistoryWire;

const ID_ERROR = 'id must be a valid UUID';

/** The record routes: expand, list, get, delete, history, change (CONTRACT sections 5 and 12). */
@ApiTags('Memories')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories')
@UseGuards(WorkspaceAgentGuard)
export class MemoriesController {
  constructor(private readonly memories: MemoriesService) {}

  @Post('expand')
  @HttpCode(200)
  @ApiOperation({ summary: 'Memories by id', description: 'In the order asked; unknown and invisible ids are left out.' })
  @ApiOkResponse({ type: ExpandResponseDoc, description: 'The visible memories among the ids.' })
  @ApiErrors({
    400: [...READ_SCOPE_ERRORS, 'memory_ids must hold 1 to 100 ids', 'memory_ids must contain only valid UUIDs'],
    body: true,
  })
  expand(@Scope() scope: MemoryScope, @Body() dto: ExpandDto): Promise<{ memories: MemoryRecord[] }> {
    return this.memories.expand(scope, dto.memory_ids);
  }

  @Get('list')
  @ApiOperation({ summary: 'List memories', description: 'Newest first. `source_site` and `episode_id` apply in user scope only.' })
  @ApiOkResponse({ type: ListResponseDoc, description: 'One page of visible memories.' })
  @ApiErrors({
    400: [
      ...READ_SCOPE_ERRORS,
      'limit must be an integer',
      'limit must be between 1 and 100',
      'offset must be 0 or more',
      'episode_id must be a valid UUID',
    ],
  })
  list(@Scope() scope: MemoryScope, @Query() q: ListQueryDto): Promise<{ memories: MemoryRecord[]; count: number }> {
    return this.memories.list(scope, {
      limit: q.limit,
      offset: q.offset,
      sourceSite: q.source_site,
      episodeId: q.episode_id,
      includeExpired: q.include_expired ?? false,
    });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One memory' })
  @ApiOkResponse({ type: MemoryRecordDoc, description: 'The memory record.' })
  @ApiErrors({ 400: [ID_ERROR, ...READ_SCOPE_ERRORS], errors: ['MEMORY_NOT_FOUND'] })
  get(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() q: GetQueryDto): Promise<MemoryRecord> {
    return this.memories.get(scope, p.id, q.include_expired ?? false);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Soft-delete a memory',
    description:
      'A delete is a change: in a workspace the caller deletes its own memories and those open to the whole workspace ' +
      "(`workspace` or no visibility); 403 for one it sees but may not change (another agent's restricted memory, read " +
      'through a grant), 404 when nothing visible matched. User scope: `{success: true}` whether or not a row matched (spec 4.2.7).',
  })
  @ApiOkResponse({ type: SuccessDoc, description: 'Deleted (in user scope: also when nothing matched).' })
  @ApiErrors({ 400: [ID_ERROR, ...READ_SCOPE_ERRORS], errors: ['SCOPE_MISMATCH', 'NOT_MEMORY_OWNER', 'MEMORY_NOT_FOUND'] })
  remove(@Param() p: MemoryIdParams, @ScopeQuery() scope: MemoryScope, @CallerActor() actor: Actor): Promise<{ success: true }> {
    return this.memories.delete(scope, p.id, actor);
  }

  @Get(':id/history')
  @ApiOperation({
    summary: "A memory's versions",
    description:
      'Oldest first: the memory as it was after each change (created, edited, visibility or expiry changed, superseded, ' +
      'deleted), who made it and when. 404 exactly like GET when the caller cannot see the memory; deleted and superseded ' +
      'memories keep their history for whoever could see them.',
  })
  @ApiOkResponse({ type: MemoryHistoryDoc, description: 'The versions.' })
  @ApiErrors({ 400: [ID_ERROR, ...READ_SCOPE_ERRORS], errors: ['MEMORY_NOT_FOUND'] })
  history(@Param() p: MemoryIdParams, @ScopeQuery() scope: MemoryScope): Promise<MemoryHistory> {
    return this.memories.history(scope, p.id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a memory (its owner only)',
    description:
      'Any of `visibility` (workspace memories), `content`, `metadata` and `expires_at` (null clears it), at least one. In a ' +
      'workspace only the owning agent (404 when the caller cannot see the memory, 403 when it sees it but does not own it); ' +
      'in user scope the user. New content passes the write gate (422 when blocked, nothing changed), is re-embedded and ' +
      're-indexed. Each PATCH is one new version (GET /v1/memories/{id}/history).',
  })
  @ApiOkResponse({ type: MemoryRecordDoc, description: 'The updated memory record.' })
  @ApiErrors({
    400: [
      ID_ERROR,
      ...SCOPE_ERRORS,
      VISIBILITY_MODES_MESSAGE,
      'one of visibility, content, metadata or expires_at is required',
      'content must be 1 to 100000 characters',
    ],
    errors: [
      'VISIBILITY_NEEDS_WORKSPACE',
      'NOT_VISIBILITY_OWNER',
      'NOT_MEMORY_OWNER',
      'SCOPE_MISMATCH',
      'MEMORY_NOT_FOUND',
      'CONTENT_BLOCKED',
      'CONTENT_LOW_TRUST',
      'GATE_BUDGET_EXCEEDED',
    ],
    body: true,
    embeds: true,
  })
  update(
    @Scope() scope: MemoryScope,
    @Param() p: MemoryIdParams,
    @Body() dto: UpdateMemoryDto,
    @CallerActor() actor: Actor,
  ): Promise<MemoryRecord> {
    return this.memories.update(
      scope,
      p.id,
      {
        visibility: dto.visibility,
        content: dto.content,
        metadata: dto.metadata,
        expiresAt: dto.expires_at === undefined ? undefined : dto.expires_at === null ? null : toTimestamp(dto.expires_at),
      },
      actor,
    );
  }
}
