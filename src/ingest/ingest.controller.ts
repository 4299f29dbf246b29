import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerActor } from '../common/identity/caller.decorator';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { Scope } from '../common/scope/scope.pipe';
import { WorkspaceAgentGuard } from '../common/scope/workspace-agent.guard';
import { VISIBILITY_MODES_MESSAGE } from '../database/access/visibility';
import { ApiErrors, ApiInternalError, ApiKeyAuth, SCOPE_ERRORS } from '../openapi/api-errors';
import { IngestDto, QuickIngestDto } from './ingest.dto';
import { IngestResponseDoc } from './ingest.responses';
import { IngestService, type IngestResponse } from './ingest.service';

const INGEST_ERRORS = [
  ...SCOPE_ERRORS,
  'conversation must be 1 to 100000 characters',
  'source_site must be 1 to 512 characters',
  'source_site must be one line of printable text (no line breaks or control characters)',
  VISIBILITY_MODES_MESSAGE,
  'visibility is only allowed with workspace_id (workspace scope)',
  'metadata must be a JSON object of at most 32 KB',
  'importance should not exist',
];

/** The write routes: POST /v1/memories/ingest and /ingest/quick (CONTRACT section 5). */
@ApiTags('Memories')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories')
@UseGuards(WorkspaceAgentGuard)
export class IngestController {
  constructor(private readonly ingestion: IngestService) {}

  @Post('ingest')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Extract facts and store them',
    description:
      'Extracts facts (with the configured LLM, else rule-based), passes each through the write gate, de-duplicates against ' +
      'the memories the writer can see and decides ADD / UPDATE / SUPERSEDE / DELETE / NOOP. Workspace writes belong to the ' +
      'calling agent. `source_site`, `source_url` and `namespace` pass the write gate too: 422 when one is blocked, nothing stored.',
  })
  @ApiOkResponse({ type: IngestResponseDoc, description: 'What was extracted, stored, updated, deleted and skipped.' })
  @ApiErrors({ 400: INGEST_ERRORS, errors: ['CONTENT_BLOCKED', 'GATE_BUDGET_EXCEEDED'], body: true, embeds: true })
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
  @ApiErrors({
    400: [...INGEST_ERRORS, 'skip_extraction must be a boolean'],
    errors: ['CONTENT_BLOCKED', 'GATE_BUDGET_EXCEEDED'],
    body: true,
    embeds: true,
  })
  ingestQuick(@Scope() scope: MemoryScope, @Body() dto: QuickIngestDto, @CallerActor() actor: Actor): Promise<IngestResponse> {
    return this.ingestion.ingestQuick(scope, dto, actor);
  }
}
