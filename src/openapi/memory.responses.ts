import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';

import type { IngestResponseWire, LessonCheckWire, MemoryRecordWire, SameKeys, SearchHitWire } from '../client/wire-types';
import { VISIBILITY_MODES } from '../database/visibility';
import { LESSON_SEVERITIES, type LessonCheck, type LessonSeverity } from '../lessons/lesson.types';
import type { IngestResponse } from '../memories/ingest.service';
import type { MemoryRecord, SearchHit } from '../memories/memory.mapper';
import type { SearchResponse } from '../memories/search.service';
import { AGENT_EXAMPLE, AGENT_SCOPE_SCHEMA, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from './scope.schema';

/**
 * OpenAPI classes of the memory routes' responses. The shapes themselves are declared once in
 * src/client/wire-types.ts (the services use them as they are, the client camel-cases them);
 * `implements` and the SameKeys lines at the end make the compiler refuse a class that drifts
 * from them, and the e2e suites check every response body against these schemas.
 */

const MEMORY_TYPES = ['semantic', 'episodic', 'procedural'] as const;
const MEMORY_STATUSES = ['active', 'needs_clarification'] as const;
const VISIBILITY_VALUES = VISIBILITY_MODES;
const TIME_EXAMPLE = '2026-11-21T15:27:05.000Z';

const metadataProperty = {
  type: 'object',
  additionalProperties: true,
  description: 'Caller-supplied metadata of the ingest, as stored ({} when none).',
  example: { topic: 'travel' },
} as const;

/** CONTRACT section 4. Never the embedding. */
@ApiSchema({ name: 'MemoryRecord', description: 'A stored memory (CONTRACT section 4). Never carries the embedding vector.' })
export class MemoryRecordDoc implements MemoryRecord {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, minLength: 1, maxLength: 256, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, example: 'I moved to Lisbon last year.' })
  content: string;

  @ApiProperty({ type: String, enum: MEMORY_TYPES, example: 'semantic' })
  memory_type: (typeof MEMORY_TYPES)[number];

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, example: 0.6 })
  importance: number;

  @ApiProperty({ type: String, example: 'chat.example' })
  source_site: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  source_url: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The ingest call that produced this memory.',
    example: UUID_EXAMPLE,
  })
  episode_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  namespace: string | null;

  @ApiProperty({ type: String, enum: MEMORY_STATUSES, example: 'active' })
  status: (typeof MEMORY_STATUSES)[number];

  @ApiProperty(metadataProperty)
  metadata: Record<string, unknown>;

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, example: 0.7 })
  trust_score: number;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for user-scope memories.', example: null })
  workspace_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The owning agent; null for user-scope memories.',
    example: null,
  })
  agent_id: string | null;

  @ApiProperty({
    type: String,
    enum: VISIBILITY_VALUES,
    nullable: true,
    description: 'null for user-scope memories and legacy workspace rows (treated as `workspace`).',
    example: null,
  })
  visibility: (typeof VISIBILITY_VALUES)[number] | null;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  updated_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  last_accessed_at: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  access_count: number;
}

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
    description: 'One per matched lesson (top 3): `[<severity>] <lesson_type>: <first 100 chars of pattern> (similarity: 0.87)`.',
    example: ['[high] injection_blocked: ignore previous instructions (similarity: 0.87)'],
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
    description: 'The memories as a prompt block (empty string when there are none).',
    example: '## Relevant memories\n1. I moved to Lisbon last year. (chat.example, 2026-11-21)',
  })
  injection_text: string;

  @ApiProperty({ type: [String], format: 'uuid', maxItems: 100, description: 'The ids of `memories`, in order.', example: [UUID_EXAMPLE] })
  citations: string[];

  @ApiPropertyOptional({ type: LessonCheckDoc, description: 'Present only while lessons are enabled.' })
  lesson_check?: LessonCheckDoc;
}

@ApiSchema({ name: 'IngestResponse' })
export class IngestResponseDoc implements IngestResponse {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  episode_id: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 2 })
  facts_extracted: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'New rows, including the new row of each SUPERSEDE.', example: 2 })
  memories_stored: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  memories_updated: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  memories_deleted: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Duplicates, NOOPs and facts the write gate rejected.', example: 0 })
  memories_skipped: number;

  @ApiProperty({ type: [String], format: 'uuid', example: [UUID_EXAMPLE] })
  stored_memory_ids: string[];

  @ApiProperty({ type: [String], format: 'uuid', example: [] })
  updated_memory_ids: string[];
}

@ApiSchema({ name: 'ExpandResponse' })
export class ExpandResponseDoc {
  @ApiProperty({ type: [MemoryRecordDoc], maxItems: 100, description: 'In the order asked; unknown and invisible ids are left out.' })
  memories: MemoryRecordDoc[];
}

@ApiSchema({ name: 'ListResponse' })
export class ListResponseDoc {
  @ApiProperty({ type: [MemoryRecordDoc], maxItems: 100, description: 'Newest first.' })
  memories: MemoryRecordDoc[];

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, description: '`memories.length`.', example: 1 })
  count: number;
}

@ApiSchema({ name: 'Success' })
export class SuccessDoc {
  @ApiProperty({ type: Boolean, enum: [true], example: true })
  success: true;
}

@ApiSchema({ name: 'Grant' })
export class GrantDoc {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  memory_id: string;

  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  grantee_agent_id: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;
}

@ApiSchema({ name: 'GrantEntry' })
export class GrantEntryDoc {
  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  grantee_agent_id: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;
}

@ApiSchema({ name: 'GrantList' })
export class GrantListDoc {
  @ApiProperty({ type: [GrantEntryDoc] })
  grants: GrantEntryDoc[];

  @ApiProperty({ type: 'integer', minimum: 0, description: '`grants.length`.', example: 1 })
  count: number;
}

/** Models referenced only through $ref (oneOf), registered with the document. */
export const MEMORY_EXTRA_MODELS = [UserScopeDoc, WorkspaceScopeDoc];

// Each shape is declared once, in src/client/wire-types.ts: these lines stop compiling when a
// doc class gains or loses a key against it (`implements` alone only catches a missing field).
const _memoryRecordKeys: SameKeys<MemoryRecordDoc, MemoryRecordWire> = true;
const _searchHitKeys: SameKeys<SearchHitDoc, SearchHitWire> = true;
const _lessonCheckKeys: SameKeys<LessonCheckDoc, LessonCheckWire> = true;
const _ingestKeys: SameKeys<IngestResponseDoc, IngestResponseWire> = true;
const _searchKeys: SameKeys<SearchResponseDoc, SearchResponse> = true;
