import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';

import type { LessonCheckWire, SameKeys, SearchHitWire } from '../contract/wire-types';
import { VISIBILITY_MODES } from '../database/access/visibility';
import { LESSON_SEVERITIES, type LessonCheck, type LessonSeverity } from '../lessons/lesson.types';
import type { SearchHit } from '../memories/memory.mapper';
import { AGENT_EXAMPLE, AGENT_SCOPE_SCHEMA, TIME_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';
import type { SearchResponse } from './search.service';

/**
 * OpenAPI classes of the search routes' responses. The shapes themselves are declared once in
 * src/contract/wire-types.ts (the services use them as they are, the client camel-cases them);
 * `implements` and the SameKeys lines at the end make the compiler refuse a class that drifts
 * from them, and the e2e suites check every response body against these schemas.
 */

const VISIBILITY_VALUES = VISIBILITY_MODES;

const metadataProperty = {
  type: 'object',
  additionalProperties: true,
  description: 'Caller-supplied metadata of the ingest, as stored ({} when none).',
  example: { topic: 'travel' },
} as const;

@ApiSchema({ name: 'SearchHit', description: 'One search result.' })
export class SearchHitDoc implements SearchHit {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, example: 'I moved to Lisbon last year.' })
  content: string;

  @ApiProperty({ type: Number, description: 'Cosine similarity between the query and the memory.', example: 0.83 })
  similarity: number;

  @ApiProperty({
    type: Number,
    description: '/search: fused rank re-scored by importance, recency and trust; /search/fast: the similarity.',
    example: 0.91,
  })
  score: number;

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, example: 0.6 })
  importance: number;

  @ApiProperty({ type: String, example: 'chat.example' })
  source_site: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;

  @ApiProperty(metadataProperty)
  metadata: Record<string, unknown>;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  agent_id: string | null;

  @ApiProperty({ type: String, enum: VISIBILITY_VALUES, nullable: true, example: null })
  visibility: (typeof VISIBILITY_VALUES)[number] | null;
}

@ApiSchema({ name: 'UserScope', description: "The caller's personal memories." })
export class UserScopeDoc {
  @ApiProperty({ type: String, enum: ['user'], example: 'user' })
  kind: 'user';

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;
}

@ApiSchema({ name: 'WorkspaceScope', description: 'A workspace, read as one of its agents.' })
export class WorkspaceScopeDoc {
  @ApiProperty({ type: String, enum: ['workspace'], example: 'workspace' })
  kind: 'workspace';

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', example: WORKSPACE_EXAMPLE })
  workspace_id: string;

  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  agent_id: string;

  @ApiProperty({ ...AGENT_SCOPE_SCHEMA, description: 'The effective agent scope: all, self, others, one agent id or a list.' })
  agent_scope: string | string[];
}

@ApiSchema({ name: 'LessonCheck', description: 'The lesson check run before every search (absent while lessons are off).' })
export class LessonCheckDoc implements LessonCheck {
  @ApiProperty({
    type: Boolean,
    description: 'false when a `critical` lesson matched: the search then returns no memories.',
    example: true,
  })
  safe: boolean;

  @ApiProperty({
    type: [String],
    maxItems: 3,
    description:
      'One per matched lesson (top 3): `[<severity>] <lesson_type>: <first 100 chars of pattern> (similarity: 0.87)`. For an ' +
      "agent key and a lesson another agent's write or report produced, the text is withheld: " +
      '`[<severity>] <lesson_type>: (withheld; lesson <id>, rules: <rule ids>) (similarity: 0.87)` (rules only when the lesson has them).',
    example: [
      '[high] injection_blocked: ignore previous instructions (similarity: 0.87)',
      '[high] injection_blocked: (withheld; lesson 7d1f0b9e-2c4a-4e8b-9a51-3f6c2d8e1a40, rules: injection:ignore-previous) (similarity: 0.91)',
    ],
  })
  warnings: string[];

  @ApiProperty({ type: String, enum: [...LESSON_SEVERITIES, 'none'], example: 'none' })
  highest_severity: LessonSeverity | 'none';

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 3, example: 0 })
  matched_count: number;
}

@ApiSchema({ name: 'SearchResponse' })
export class SearchResponseDoc implements SearchResponse {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, description: '`memories.length`.', example: 1 })
  count: number;

  @ApiProperty({ type: String, enum: ['flat'], example: 'flat' })
  retrieval_mode: 'flat';

  @ApiProperty({
    description: 'The scope the search ran in.',
    oneOf: [{ $ref: getSchemaPath(UserScopeDoc) }, { $ref: getSchemaPath(WorkspaceScopeDoc) }],
    discriminator: { propertyName: 'kind' },
  })
  scope: Record<string, unknown>;

  @ApiProperty({ type: [SearchHitDoc], maxItems: 100, description: 'Best first; empty when a critical lesson matched.' })
  memories: SearchHitDoc[];

  @ApiProperty({
    type: String,
    description:
      'The memories as a prompt block (empty string when there are none): a heading, then each memory as a fenced entry of three ' +
      'lines, `<memory n id source date>`, its content on one line (`&<>"` escaped as XML entities), `</memory>`.',
    example:
      '## Relevant memories\n<memory n="1" id="7d1f0b9e-2c4a-4e8b-9a51-3f6c2d8e1a40" source="chat.example" date="2026-11-21">\n' +
      'I moved to Lisbon last year.\n</memory>',
  })
  injection_text: string;

  @ApiProperty({ type: [String], format: 'uuid', maxItems: 100, description: 'The ids of `memories`, in order.', example: [UUID_EXAMPLE] })
  citations: string[];

  @ApiPropertyOptional({ type: LessonCheckDoc, description: 'Present only while lessons are enabled.' })
  lesson_check?: LessonCheckDoc;
}

/** Models referenced only through $ref (oneOf), registered with the document. */
export const SEARCH_EXTRA_MODELS = [UserScopeDoc, WorkspaceScopeDoc];

// Declared once, in src/contract/wire-types.ts (see memories/memory.responses.ts).
const _searchHitKeys: SameKeys<SearchHitDoc, SearchHitWire> = true;
const _lessonCheckKeys: SameKeys<LessonCheckDoc, LessonCheckWire> = true;
const _searchKeys: SameKeys<SearchResponseDoc, SearchResponse> = true;
