import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

import { IsTimestamp } from '../common/validation/timestamp';
import { IsStringOrStringArray } from '../common/validation/transforms';
import { LIMITS } from '../memories/dto/limits';
import { ScopeFieldsDto } from '../memories/dto/scope-fields.dto';
import { PageLimit, SourceSiteFilter } from '../memories/dto/shared-fields';

const NAMESPACE_SCOPE_ITEMS = 50;

export class SearchDto extends ScopeFieldsDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: LIMITS.query, example: 'where do I live?' })
  @IsString({ message: 'query must be a string' })
  @Length(1, LIMITS.query, { message: `query must be 1 to ${LIMITS.query} characters` })
  query: string;

  @PageLimit(10, 'Capped by the runtime `max_search_results`.')
  limit?: number;

  @SourceSiteFilter()
  source_site?: string;

  /** User scope only: one namespace or a list; matches memories in any of them. */
  @ApiPropertyOptional({
    type: Array, // keeps the oneOf as written (see AGENT_SCOPE_SCHEMA)
    description: 'User scope only: one namespace or a list of them; matches memories in any of them.',
    oneOf: [
      { type: 'string', minLength: 1, maxLength: LIMITS.namespace },
      { type: 'array', items: { type: 'string', minLength: 1, maxLength: LIMITS.namespace }, minItems: 1, maxItems: NAMESPACE_SCOPE_ITEMS },
    ],
    example: 'personal',
  })
  @IsOptional()
  @IsStringOrStringArray(NAMESPACE_SCOPE_ITEMS, LIMITS.namespace)
  namespace_scope?: string | string[];

  /** Valid time (CONTRACT section 12): what was known and valid at this instant, in both scopes. */
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description:
      'What was known and valid at this instant (both scopes): created by then, not yet superseded, deleted or expired then. RFC 3339 (`2026-11-01T00:00:00Z`, offset required with a time) or a date (`2026-11-01`, midnight UTC).',
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsTimestamp()
  as_of?: string;

  /** "Now" for recency scoring (default: the server's clock). */
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: '"Now" for recency scoring, in the same format as `as_of` (default: the server\'s clock).',
    example: '2026-11-21T12:00:00Z',
  })
  @IsOptional()
  @IsTimestamp()
  reference_time?: string;
}
