import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerActor } from '../auth/caller.decorator';
import { CallerKeyRecheck, KeyCheckedInStatement, type KeyRecheck } from '../auth/key-recheck';
import type { Actor } from '../auth/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { TIMESTAMP_FORMAT_HINT } from '../common/validation/timestamp';
import { VISIBILITY_MODES_MESSAGE } from '../database/visibility';
import { ApiErrors, ApiInternalError, ApiKeyAuth, READ_SCOPE_ERRORS, SCOPE_ERRORS, SCOPE_MISMATCH_MESSAGE } from '../openapi/api-errors';
import {
  ExpandResponseDoc,
  IngestResponseDoc,
  ListResponseDoc,
  MemoryRecordDoc,
  SearchResponseDoc,
  SuccessDoc,
} from '../openapi/memory.responses';
import { ExpandDto } from './dto/expand.dto';
import { IngestDto, QuickIngestDto } from './dto/ingest.dto';
import { ListQueryDto } from './dto/list-query.dto';
import { MemoryIdParams, ScopeQueryDto, UpdateVisibilityDto } from './dto/memory-id.dto';
import { SearchDto } from './dto/search.dto';
import { IngestService, type IngestResponse } from './ingest.service';
import { MemoriesService } from './memories.service';
import type { MemoryRecord } from './memory.mapper';
import { SearchService, type SearchResponse } from './search.service';

const INGEST_ERRORS = [
  ...SCOPE_ERRORS,
  'conversation must be 1 to 100000 characters',
  'source_site must be 1 to 512 characters',
  VISIBILITY_MODES_MESSAGE,
  'visibility is only allowed with workspace_id (workspace scope)',
  'metadata must be a JSON object of at most 32 KB',
  'importance should not exist',
];
const SEARCH_ERRORS = [
  ...READ_SCOPE_ERRORS,
  'query must be 1 to 10000 characters',
  'limit must be between 1 and 100',
  `as_of must be ${TIMESTAMP_FORMAT_HINT}`,
];
const ID_ERROR = 'id must be a valid UUID';
const NOT_FOUND = ['Memory not found'];

/** Static paths come before `/:id` so they are matched first. */
@ApiTags('Memories')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories')
@UseGuards(WorkspaceAgentGuard)
export class MemoriesController {
  constructor(
    private readonly memories: MemoriesService,
    private readonly search: SearchService,
    private readonly ingestion: IngestService,
  ) {}

  @Post('ingest')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Extract facts and store them',
    description:
      'Extracts facts (with the configured LLM, else rule-based), passes each through the write gate, de-duplicates against ' +
      'the memories the writer can see and decides ADD / UPDATE / SUPERSEDE / DELETE / NOOP. Workspace writes belong to the ' +
      'calling agent.',
  })
  @ApiOkResponse({ type: IngestResponseDoc, description: 'What was extracted, stored, updated, deleted and skipped.' })
  @ApiErrors({ 400: INGEST_ERRORS, body: true, embeds: true })
  ingest(@Scope() scope: MemoryScope, @Body() dto: IngestDto, @CallerActor() actor: Actor): Promise<IngestResponse> {
    return this.ingestion.ingest(scope, dto, actor);
  }

  @Post('ingest/quick')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store with rule-based extraction only',
    description: 'Never calls an LLM. `skip_extraction: true` stores `conversation` verbatim as one memory.',
  })
  @ApiOkResponse({ type: IngestResponseDoc, description: 'What was extracted, stored and skipped.' })
  @ApiErrors({ 400: [...INGEST_ERRORS, 'skip_extraction must be a boolean'], body: true, embeds: true })
  ingestQuick(@Scope() scope: MemoryScope, @Body() dto: QuickIngestDto, @CallerActor() actor: Actor): Promise<IngestResponse> {
    return this.ingestion.ingestQuick(scope, dto, actor);
  }

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Hybrid search',
    description:
      'Vector and full-text retrieval fused by reciprocal rank, re-scored by importance, recency and trust, within the ' +
      'scope and visibility of the caller. Runs the lesson check first: a `critical` match answers 200 with no memories.',
  })
  @ApiOkResponse({ type: SearchResponseDoc, description: 'The best visible memories, with the lesson check.' })
  @ApiErrors({ 400: SEARCH_ERRORS, body: true, embeds: true })
  @KeyCheckedInStatement()
  searchHybrid(
    @Scope() scope: MemoryScope,
    @Body() dto: SearchDto,
    @CallerKeyRecheck() recheck: KeyRecheck | null,
  ): Promise<SearchResponse> {
    return this.search.search(scope, dto, recheck);
  }

  @Post('search/fast')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Vector search',
    description: 'Vector retrieval only, ranked by similarity; same request and response as /search.',
  })
  @ApiOkResponse({ type: SearchResponseDoc, description: 'The most similar visible memories, with the lesson check.' })
  @ApiErrors({ 400: SEARCH_ERRORS, body: true, embeds: true })
  @KeyCheckedInStatement()
  searchFast(@Scope() scope: MemoryScope, @Body() dto: SearchDto, @CallerKeyRecheck() recheck: KeyRecheck | null): Promise<SearchResponse> {
    return this.search.searchFast(scope, dto, recheck);
  }

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
    return this.memories.list(scope, { limit: q.limit, offset: q.offset, sourceSite: q.source_site, episodeId: q.episode_id });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One memory' })
  @ApiOkResponse({ type: MemoryRecordDoc, description: 'The memory record.' })
  @ApiErrors({ 400: [ID_ERROR, ...READ_SCOPE_ERRORS], 404: NOT_FOUND })
  get(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() _q: ScopeQueryDto): Promise<MemoryRecord> {
    return this.memories.get(scope, p.id);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Soft-delete a memory',
    description:
      'Workspace scope: 404 when nothing visible matched. User scope: `{success: true}` whether or not a row matched (spec 4.2.7).',
  })
  @ApiOkResponse({ type: SuccessDoc, description: 'Deleted (in user scope: also when nothing matched).' })
  @ApiErrors({ 400: [ID_ERROR, ...READ_SCOPE_ERRORS], 404: NOT_FOUND })
  remove(
    @Scope() scope: MemoryScope,
    @Param() p: MemoryIdParams,
    @Query() _q: ScopeQueryDto,
    @CallerActor() actor: Actor,
  ): Promise<{ success: true }> {
    return this.memories.delete(scope, p.id, actor);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change visibility (owning agent only)',
    description: 'Workspace memories only. 404 when the caller cannot see the memory, 403 when it sees it but does not own it.',
  })
  @ApiOkResponse({ type: MemoryRecordDoc, description: 'The memory record with its new visibility.' })
  @ApiErrors({
    400: [ID_ERROR, ...SCOPE_ERRORS, VISIBILITY_MODES_MESSAGE, 'workspace_id is required: visibility exists only for workspace memories'],
    403: ['Only the owning agent may change visibility', SCOPE_MISMATCH_MESSAGE],
    404: NOT_FOUND,
    body: true,
  })
  updateVisibility(
    @Scope() scope: MemoryScope,
    @Param() p: MemoryIdParams,
    @Body() dto: UpdateVisibilityDto,
    @CallerActor() actor: Actor,
  ): Promise<MemoryRecord> {
    return this.memories.updateVisibility(scope, p.id, dto.visibility, actor);
  }
}
