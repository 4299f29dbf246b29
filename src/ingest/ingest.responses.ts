import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import type { IngestResponseWire, SameKeys } from '../contract/wire-types';
import { UUID_EXAMPLE } from '../openapi/scope.schema';
import type { IngestResponse } from './ingest.service';

/**
 * OpenAPI classes of the ingest routes' responses. The shapes themselves are declared once in
 * src/contract/wire-types.ts (the services use them as they are, the client camel-cases them);
 * `implements` and the SameKeys lines at the end make the compiler refuse a class that drifts
 * from them, and the e2e suites check every response body against these schemas.
 */

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

// Declared once, in src/contract/wire-types.ts (see memories/memory.responses.ts).
const _ingestKeys: SameKeys<IngestResponseDoc, IngestResponseWire> = true;
