import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import type { MemoryHistoryWire, MemoryRecordWire, MemoryVersionWire, SameKeys } from '../contract/wire-types';
import { VISIBILITY_MODES } from '../database/access/visibility';
import { TIME_EXAMPLE, UUID_EXAMPLE } from '../openapi/scope.schema';
import type { MemoryRecord, MemoryVersion } from './memory.mapper';

/**
 * OpenAPI classes of the memory record routes' responses. The shapes themselves are declared once in
 * src/contract/wire-types.ts (the services use them as they are, the client camel-cases them);
 * `implements` and the SameKeys lines at the end make the compiler refuse a class that drifts
 * from them, and the e2e suites check every response body against these schemas.
 */

const MEMORY_TYPES = ['semantic', 'episodic', 'procedural'] as const;
const MEMORY_STATUSES = ['active', 'needs_clarification'] as const;
const VISIBILITY_VALUES = VISIBILITY_MODES;
const VERSION_CHANGES = ['created', 'edited', 'visibility_changed', 'expiry_changed', 'superseded', 'deleted'] as const;

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

  @ApiProperty({ type: 'integer', minimum: 1, description: '1 at creation, +1 per change (GET /v1/memories/{id}/history).', example: 1 })
  version: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the memory stops being returned (null: never).',
    example: null,
  })
  expires_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Set when the memory was superseded (valid time; null: still valid).',
    example: null,
  })
  valid_until: string | null;
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

@ApiSchema({ name: 'MemoryVersion', description: 'The memory as it was after one change (CONTRACT section 12).' })
export class MemoryVersionDoc implements MemoryVersion {
  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  version: number;

  @ApiProperty({ type: String, enum: VERSION_CHANGES, example: 'edited' })
  change: MemoryVersion['change'];

  @ApiProperty({ type: String, example: 'I moved to Porto this spring.' })
  content: string;

  @ApiProperty(metadataProperty)
  metadata: Record<string, unknown>;

  @ApiProperty({ type: String, enum: VISIBILITY_VALUES, nullable: true, example: 'workspace' })
  visibility: (typeof VISIBILITY_VALUES)[number] | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  changed_at: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The agent that made the change (null in user scope).',
    example: null,
  })
  agent_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The API key that made it (null without one).', example: null })
  key_id: string | null;
}

@ApiSchema({ name: 'MemoryHistory' })
export class MemoryHistoryDoc {
  @ApiProperty({ type: [MemoryVersionDoc], description: 'Oldest first.' })
  versions: MemoryVersionDoc[];

  @ApiProperty({ type: 'integer', minimum: 0, description: '`versions.length`.', example: 2 })
  count: number;
}

// Declared once, in src/contract/wire-types.ts: this line stops compiling when the class gains
// or loses a key against it (`implements` alone only catches a missing field).
const _memoryRecordKeys: SameKeys<MemoryRecordDoc, MemoryRecordWire> = true;
const _versionKeys: SameKeys<MemoryVersionDoc, MemoryVersionWire> = true;
const _historyKeys: SameKeys<MemoryHistoryDoc, MemoryHistoryWire> = true;
