import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

import { LowerCase, LowerCaseEach } from '../common/validation/transforms';
import { LESSON_SEVERITIES, type LessonSeverity } from './lesson.types';

const USER_ID_MESSAGE = 'user_id (string) is required';

export class LessonUserQueryDto {
  @IsString({ message: USER_ID_MESSAGE })
  @Length(1, 256, { message: USER_ID_MESSAGE })
  user_id: string;
}

/** user_id may come in the query string or in the body; the query wins. */
export class ReportLessonQueryDto {
  @IsOptional()
  @IsString({ message: USER_ID_MESSAGE })
  @Length(1, 256, { message: USER_ID_MESSAGE })
  user_id?: string;
}

export class ReportLessonDto {
  @IsOptional()
  @IsString({ message: USER_ID_MESSAGE })
  @Length(1, 256, { message: USER_ID_MESSAGE })
  user_id?: string;

  @IsString({ message: 'pattern must be a string' })
  @Length(1, 2000, { message: 'pattern must be 1 to 2000 characters' })
  pattern: string;

  @IsOptional()
  @IsArray({ message: 'source_memory_ids must be an array of UUIDs' })
  @ArrayMaxSize(100, { message: 'source_memory_ids may hold at most 100 ids' })
  @IsUUID('all', { each: true, message: 'source_memory_ids must contain only valid UUIDs' })
  @LowerCaseEach()
  source_memory_ids?: string[];

  @IsOptional()
  @IsIn(LESSON_SEVERITIES, { message: 'severity must be one of low, medium, high, critical' })
  severity?: LessonSeverity;
}

export class LessonIdParams {
  @IsUUID('all', { message: 'id must be a valid UUID' })
  @LowerCase()
  id: string;
}
