import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

import { IsUserId, LowerCase, LowerCaseEach } from '../common/validation/transforms';
import { USER_ID_SCHEMA, UUID_EXAMPLE } from '../openapi/scope.schema';
import { LESSON_SEVERITIES, type LessonSeverity } from './lesson.types';

const SOURCE_MEMORY_IDS_MAX = 100;

/** Required without an API key; with one it may be left out (the key's user) and must match. */
export class LessonUserQueryDto {
  @ApiPropertyOptional({
    ...USER_ID_SCHEMA,
    description: "The user. Required unless an API key says it (AUTH_MODE=api_key: the key's user; another is 403).",
  })
  @IsOptional()
  @IsUserId()
  user_id?: string;
}

/** user_id may come in the query string or in the body; the query wins. */
export class ReportLessonQueryDto {
  @ApiPropertyOptional({
    ...USER_ID_SCHEMA,
    description: 'The user the lesson is for. Required here or in the body; the query string wins.',
  })
  @IsOptional()
  @IsUserId()
  user_id?: string;
}

export class ReportLessonDto {
  @ApiPropertyOptional({ ...USER_ID_SCHEMA, description: 'Used when the query string has no user_id.' })
  @IsOptional()
  @IsUserId()
  user_id?: string;

  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: 2000,
    description: 'What to watch for; searches whose query is similar get a warning (or, when critical, no results).',
    example: 'advice to wire money to a new account',
  })
  @IsString({ message: 'pattern must be a string' })
  @Length(1, 2000, { message: 'pattern must be 1 to 2000 characters' })
  pattern: string;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: SOURCE_MEMORY_IDS_MAX, default: [], example: [UUID_EXAMPLE] })
  @IsOptional()
  @IsArray({ message: 'source_memory_ids must be an array of UUIDs' })
  @ArrayMaxSize(SOURCE_MEMORY_IDS_MAX, { message: 'source_memory_ids may hold at most 100 ids' })
  @IsUUID('all', { each: true, message: 'source_memory_ids must contain only valid UUIDs' })
  @LowerCaseEach()
  source_memory_ids?: string[];

  @ApiPropertyOptional({
    type: String,
    enum: LESSON_SEVERITIES,
    default: 'high',
    description: '`critical` blocks matching searches.',
    example: 'critical',
  })
  @IsOptional()
  @IsIn(LESSON_SEVERITIES, { message: 'severity must be one of low, medium, high, critical' })
  severity?: LessonSeverity;
}

export class LessonIdParams {
  @ApiProperty({
    type: String,
    format: 'uuid',
    description: 'The lesson. Not a UUID: 400 `id must be a valid UUID`.',
    example: UUID_EXAMPLE,
  })
  @IsUUID('all', { message: 'id must be a valid UUID' })
  @LowerCase()
  id: string;
}
