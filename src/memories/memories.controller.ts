import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';

import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { ExpandDto } from './dto/expand.dto';
import { IngestDto, QuickIngestDto } from './dto/ingest.dto';
import { ListQueryDto } from './dto/list-query.dto';
import { MemoryIdParams, ScopeQueryDto, UpdateVisibilityDto } from './dto/memory-id.dto';
import { SearchDto } from './dto/search.dto';
import { IngestService, type IngestResponse } from './ingest.service';
import { MemoriesService } from './memories.service';
import type { MemoryRecord } from './memory.mapper';
import { SearchService, type SearchResponse } from './search.service';

/** Static paths come before `/:id` so they are matched first. */
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
  ingest(@Scope() scope: MemoryScope, @Body() dto: IngestDto): Promise<IngestResponse> {
    return this.ingestion.ingest(scope, dto);
  }

  @Post('ingest/quick')
  @HttpCode(200)
  ingestQuick(@Scope() scope: MemoryScope, @Body() dto: QuickIngestDto): Promise<IngestResponse> {
    return this.ingestion.ingestQuick(scope, dto);
  }

  @Post('search')
  @HttpCode(200)
  searchHybrid(@Scope() scope: MemoryScope, @Body() dto: SearchDto): Promise<SearchResponse> {
    return this.search.search(scope, dto);
  }

  @Post('search/fast')
  @HttpCode(200)
  searchFast(@Scope() scope: MemoryScope, @Body() dto: SearchDto): Promise<SearchResponse> {
    return this.search.searchFast(scope, dto);
  }

  @Post('expand')
  @HttpCode(200)
  expand(@Scope() scope: MemoryScope, @Body() dto: ExpandDto): Promise<{ memories: MemoryRecord[] }> {
    return this.memories.expand(scope, dto.memory_ids);
  }

  @Get('list')
  list(@Scope() scope: MemoryScope, @Query() q: ListQueryDto): Promise<{ memories: MemoryRecord[]; count: number }> {
    return this.memories.list(scope, { limit: q.limit, offset: q.offset, sourceSite: q.source_site, episodeId: q.episode_id });
  }

  @Get(':id')
  get(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() _q: ScopeQueryDto): Promise<MemoryRecord> {
    return this.memories.get(scope, p.id);
  }

  @Delete(':id')
  remove(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Query() _q: ScopeQueryDto): Promise<{ success: true }> {
    return this.memories.delete(scope, p.id);
  }

  @Patch(':id')
  updateVisibility(@Scope() scope: MemoryScope, @Param() p: MemoryIdParams, @Body() dto: UpdateVisibilityDto): Promise<MemoryRecord> {
    return this.memories.updateVisibility(scope, p.id, dto.visibility);
  }
}
