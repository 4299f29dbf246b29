import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';

import { DomainError } from '../common/errors/domain-error';
import { LessonIdParams, LessonUserQueryDto, ReportLessonDto, ReportLessonQueryDto } from './lessons.dto';
import { LessonsService } from './lessons.service';

/** User-scoped lesson routes (spec 4.6, CONTRACT section 6). Registered before /v1/memories/:id. */
@Controller('v1/memories/lessons')
export class LessonsController {
  constructor(private readonly lessons: LessonsService) {}

  @Get()
  list(@Query() q: LessonUserQueryDto) {
    return this.lessons.list(q.user_id);
  }

  @Get('stats')
  stats(@Query() q: LessonUserQueryDto) {
    return this.lessons.stats(q.user_id);
  }

  /** 201 {lesson_id}; 200 {lesson_id: null} while lessons are off (nothing written). */
  @Post('report')
  @HttpCode(201)
  async report(@Query() q: ReportLessonQueryDto, @Body() dto: ReportLessonDto, @Res({ passthrough: true }) res: Response) {
    const userId = q.user_id ?? dto.user_id;
    if (!userId) throw new DomainError('VALIDATION_FAILED', 'user_id (string) is required');
    const result = await this.lessons.report(userId, {
      pattern: dto.pattern,
      sourceMemoryIds: dto.source_memory_ids ?? [],
      severity: dto.severity,
    });
    if (result.lesson_id === null) res.status(200);
    return result;
  }

  @Delete(':id')
  retire(@Param() p: LessonIdParams, @Query() q: LessonUserQueryDto) {
    return this.lessons.retire(q.user_id, p.id);
  }
}
