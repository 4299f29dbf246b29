import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerPrincipal } from '../common/identity/caller.decorator';
import { CallerKeyRecheck, KeyCheckedInStatement, type KeyRecheck } from '../common/identity/key-recheck';
import type { Principal } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { TIMESTAMP_FORMAT_HINT } from '../common/validation/timestamp';
import { ApiErrors, ApiInternalError, ApiKeyAuth, READ_SCOPE_ERRORS } from '../openapi/api-errors';
import { SearchDto } from './search.dto';
import { SearchResponseDoc } from './search.responses';
import { SearchService, type SearchResponse } from './search.service';

const SEARCH_ERRORS = [
  ...READ_SCOPE_ERRORS,
  'query must be 1 to 10000 characters',
  'limit must be between 1 and 100',
  `as_of must be ${TIMESTAMP_FORMAT_HINT}`,
];

/** POST /v1/memories/search (hybrid) and /search/fast (vector only), CONTRACT section 5. */
@ApiTags('Memories')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories')
@UseGuards(WorkspaceAgentGuard)
export class SearchController {
  constructor(private readonly search: SearchService) {}

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
    @CallerPrincipal() principal: Principal,
  ): Promise<SearchResponse> {
    return this.search.search(scope, dto, recheck, principal);
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
  searchFast(
    @Scope() scope: MemoryScope,
    @Body() dto: SearchDto,
    @CallerKeyRecheck() recheck: KeyRecheck | null,
    @CallerPrincipal() principal: Principal,
  ): Promise<SearchResponse> {
    return this.search.searchFast(scope, dto, recheck, principal);
  }
}
