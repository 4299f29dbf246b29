import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { DomainError } from '../common/errors/domain-error';
import { CallerActor, CallerPrincipal } from '../common/identity/caller.decorator';
import type { Actor, Principal } from '../common/identity/principal';
import { userIdForPrincipal } from '../common/scope/bind-scope';
import type { MemoryScope } from '../common/scope/memory-scope';
import { ApiErrors, ApiInternalError, ApiKeyAuth } from '../openapi/api-errors';
import { LessonListDoc, LessonReportedDoc, LessonRetiredDoc, LessonStatsDoc } from './lesson.responses';
import { LessonIdParams, LessonUserQueryDto, ReportLessonDto, ReportLessonQueryDto } from './lessons.dto';
import { LessonsService } from './lessons.service';
import { hasContentWord } from './report-pattern';
import { WriteGateService } from './write-gate.service';

const USER_ID_ERROR = 'user_id (string) is required';
const PATTERN_CONTENT_MESSAGE = 'pattern must hold at least one content word, not only words like "the", "what" or "my"';

/** User-scoped lesson routes (spec 4.6, CONTRACT section 6). Tried before /v1/memories/:id whatever the module order (app/route-order.ts). */
@ApiTags('Lessons')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories/lessons')
export class LessonsController {
  constructor(
    private readonly lessons: LessonsService,
    private readonly gate: WriteGateService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List active lessons',
    description:
      'Newest first. Patterns may hold raw attack text: treat this route as sensitive as memory content. An agent key reads ' +
      'the text only of lessons its own writes or reports produced; for the others `pattern` is withheld, `embedding` empty ' +
      'and `metadata` is `{withheld: true, rules?}`.',
  })
  @ApiOkResponse({ type: LessonListDoc, description: 'Active lessons, newest first (empty while lessons are off).' })
  @ApiErrors({ 400: [USER_ID_ERROR] })
  list(@Query() q: LessonUserQueryDto, @CallerPrincipal() principal: Principal) {
    return this.lessons.list(userIdForPrincipal(principal, q.user_id, 'read'), principal);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Count active lessons by type' })
  @ApiOkResponse({
    type: LessonStatsDoc,
    description: 'Counts of active lessons (`{total_active: 0, by_type: {}}` while lessons are off).',
  })
  @ApiErrors({ 400: [USER_ID_ERROR] })
  stats(@Query() q: LessonUserQueryDto, @CallerPrincipal() principal: Principal) {
    return this.lessons.stats(userIdForPrincipal(principal, q.user_id, 'read'));
  }

  /** 201 {lesson_id}; 200 {lesson_id: null} while lessons are off (nothing written). */
  @Post('report')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Report a lesson',
    description:
      'Stores a `user_reported` lesson. `user_id` comes from the query string or the body (the query wins). The pattern must ' +
      'hold a content word (not only stop words), passes the write gate (422 when blocked), and an agent key may report at ' +
      'most `high` (critical: 403). `metadata.reportedBy` is `user`, `service` or the reporting agent id.',
  })
  @ApiCreatedResponse({ type: LessonReportedDoc, description: 'Lesson stored.' })
  @ApiOkResponse({ type: LessonReportedDoc, description: 'Lessons are off: `{lesson_id: null}`, nothing written.' })
  @ApiErrors({
    400: [
      USER_ID_ERROR,
      'pattern must be 1 to 2000 characters',
      'source_memory_ids must contain only valid UUIDs',
      'severity must be one of low, medium, high, critical',
      PATTERN_CONTENT_MESSAGE,
    ],
    errors: ['SCOPE_MISMATCH', 'REPORT_SEVERITY_FORBIDDEN', 'CONTENT_BLOCKED'],
    body: true,
    embeds: true,
  })
  async report(
    @Query() q: ReportLessonQueryDto,
    @Body() dto: ReportLessonDto,
    @Res({ passthrough: true }) res: Response,
    @CallerPrincipal() principal: Principal,
    @CallerActor() actor: Actor,
  ) {
    // Both places are bound to the key: a body user_id that disagrees is refused even when the query has one.
    if (q.user_id !== undefined && dto.user_id !== undefined) userIdForPrincipal(principal, dto.user_id, 'report');
    const userId = userIdForPrincipal(principal, q.user_id ?? dto.user_id, 'report');
    if (!hasContentWord(dto.pattern)) throw new DomainError('VALIDATION_FAILED', PATTERN_CONTENT_MESSAGE);
    // A hijacked agent must not be able to blank its user's retrieval: critical (which fails searches closed) is the user's.
    if (dto.severity === 'critical' && principal.kind === 'agent') throw new DomainError('REPORT_SEVERITY_FORBIDDEN');
    await this.screenPattern(principal, userId, dto.pattern, actor);
    const result = await this.lessons.report(
      userId,
      { pattern: dto.pattern, sourceMemoryIds: dto.source_memory_ids ?? [], severity: dto.severity },
      principal,
      actor,
    );
    if (result.lesson_id === null) res.status(200);
    return result;
  }

  /**
   * A reported pattern is stored text that every search of the user is checked against and that
   * warnings show: it passes the write gate like a write (blocked: 422, an injection_blocked
   * lesson recorded as for a write of the reporter, nothing reported).
   */
  private async screenPattern(principal: Principal, userId: string, pattern: string, actor: Actor): Promise<void> {
    const assessment = await this.gate.assess(pattern);
    if (!assessment?.blocked) return;
    const scope: MemoryScope =
      principal.kind === 'agent'
        ? { kind: 'workspace', userId, workspaceId: principal.workspaceId, agentId: principal.agentId, agentScope: { kind: 'all' } }
        : { kind: 'user', userId };
    await this.gate.screen(scope, 'lesson-report', [pattern], assessment, actor);
    throw new DomainError('CONTENT_BLOCKED');
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Retire a lesson',
    description: 'The row is kept but no longer listed or matched. While lessons are off: `{success: false}`.',
  })
  @ApiOkResponse({ type: LessonRetiredDoc, description: 'Retired (`{success: false}` while lessons are off).' })
  @ApiErrors({ 400: ['id must be a valid UUID', USER_ID_ERROR], errors: ['LESSON_NOT_FOUND'] })
  retire(@Param() p: LessonIdParams, @Query() q: LessonUserQueryDto, @CallerPrincipal() principal: Principal, @CallerActor() actor: Actor) {
    return this.lessons.retire(userIdForPrincipal(principal, q.user_id, 'manage'), p.id, actor);
  }
}
