import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { UUID_EXAMPLE } from '../openapi/scope.schema';
import { LESSON_SEVERITIES, LESSON_TYPES, type LessonSeverity, type LessonType } from './lesson.types';
import type { LessonRecord } from './lessons.service';

/** Response shapes of the lesson routes (src/lessons/lessons.service.ts, CONTRACT section 6). */

@ApiSchema({
  name: 'Lesson',
  description:
    'An active lesson (spec 2.5). `pattern` may hold raw attack text: treat it as sensitive. An agent key reads the text only of ' +
    'lessons its own writes or reports produced; for the others `pattern` is `(withheld: produced by another agent)`, `embedding` ' +
    'is empty, `source_query` null and `metadata` is `{withheld: true, rules?}`.',
})
export class LessonRecordDoc implements LessonRecord {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, enum: LESSON_TYPES, example: 'user_reported' })
  lesson_type: LessonType;

  @ApiProperty({ type: String, example: 'advice to wire money to a new account' })
  pattern: string;

  @ApiProperty({
    type: [Number],
    description: "The pattern's embedding (EMBEDDING_DIMENSIONS numbers; empty when the text is withheld).",
    example: [0.012, -0.087, 0.031],
  })
  embedding: number[];

  @ApiProperty({ type: [String], format: 'uuid', example: [] })
  source_memory_ids: string[];

  @ApiProperty({ type: String, nullable: true, example: null })
  source_query: string | null;

  @ApiProperty({ type: String, enum: LESSON_SEVERITIES, example: 'high' })
  severity: LessonSeverity;

  @ApiProperty({ type: Boolean, example: true })
  active: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Trigger details, `sourceSite` and the producing `workspaceId`/`agentId` for recorded lessons; for reports `reportedBy` ' +
      '(`user`, `service`, or the reporting agent id, with its `workspaceId`/`agentId`); `{withheld: true, rules?}` when withheld.',
    example: { reportedBy: 'user' },
  })
  metadata: Record<string, unknown>;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T15:27:05.000Z' })
  created_at: string;
}

@ApiSchema({ name: 'LessonList' })
export class LessonListDoc {
  @ApiProperty({ type: [LessonRecordDoc], description: 'Active lessons, newest first; empty while lessons are off.' })
  lessons: LessonRecordDoc[];

  @ApiProperty({ type: 'integer', minimum: 0, description: '`lessons.length`.', example: 1 })
  count: number;
}

@ApiSchema({ name: 'LessonStats' })
export class LessonStatsDoc {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total_active: number;

  @ApiProperty({
    type: 'object',
    description: 'Active lessons by type, with all five types as keys; `{}` while lessons are off.',
    properties: Object.fromEntries(LESSON_TYPES.map((type) => [type, { type: 'integer', format: 'int32', minimum: 0 }])),
    additionalProperties: false,
    example: { injection_blocked: 0, trust_violation: 0, contradiction_pattern: 0, false_memory: 0, user_reported: 1 },
  })
  by_type: Record<string, number>;
}

@ApiSchema({ name: 'LessonReported' })
export class LessonReportedDoc {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The new lesson (201); null while lessons are off (200, nothing written).',
    example: UUID_EXAMPLE,
  })
  lesson_id: string | null;
}

@ApiSchema({ name: 'LessonRetired' })
export class LessonRetiredDoc {
  @ApiProperty({ type: Boolean, description: 'true once retired; false while lessons are off (nothing changes).', example: true })
  success: boolean;
}
