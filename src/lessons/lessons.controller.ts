import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { CallerActor, CallerPrincipal } from '../common/identity/caller.decorator';
import type { Actor, Principal } from '../common/identity/principal';
import { userIdForPrincipal } from '../common/scope/bind-scope';
import { ApiErrors, ApiInternalError, ApiKeyAuth } from '../openapi/api-errors';
import { LessonListDoc, LessonReportedDoc, LessonRetiredDoc, LessonStatsDoc } from './lesson.responses';
import { LessonIdParams, LessonUserQueryDto, ReportLessonDto, ReportLessonQueryDto } from './lessons.dto';
import { LessonsService } from './lessons.service';

const USER_ID_ERROR = 'user_id (string) is required';

/** User-scoped lesson routes (spec 4.6, CONTRACT section 6). Tried before /v1/memories/:id whatever the module order (app/route-order.ts). */
@ApiTags('Lessons')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/memories/lessons')
export class LessonsController {
  constructor(private readonly lessons: LessonsService) {}

  @Get()
  @ApiOperation({
    summary: 'List active lessons',
    description: 'Newest first. Patterns may hold raw attack text: treat this route as sensitive as memory content.',
  })
  @ApiOkResponse({ type: LessonListDoc, description: 'Active lessons, newest first (empty while lessons are off).' })
  @ApiErrors({ 400: [USER_ID_ERROR] })
  list(@Query() q: LessonUserQueryDto, @CallerPrincipal() principal: Principal) {
    return this.lessons.list(userIdForPrincipal(principal, q.user_id, 'read'));
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
    description: 'Stores a `user_reported` lesson. `user_id` comes from the query string or the body (the query wins).',
  })
  @ApiCreatedResponse({ type: LessonReportedDoc, description: 'Lesson stored.' })
  @ApiOkResponse({ type: LessonReportedDoc, description: 'Lessons are off: `{lesson_id: null}`, nothing written.' })
  @ApiErrors({
    400: [
      USER_ID_ERROR,
      'pattern must be 1 to 2000 characters',
      'source_memory_ids must contain only valid UUIDs',
      'severity must be one of low, medium, high, critical',
    ],
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
    const result = await this.lessons.report(
      userId,
      { pattern: dto.pattern, sourceMemoryIds: dto.source_memory_ids ?? [], severity: dto.severity },
      actor,
    );
    if (result.lesson_id === null) res.status(200);
    return result;
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
