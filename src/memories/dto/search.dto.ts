import { IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';

import { IsStringOrStringArray, ToInt } from '../../common/validation/transforms';
import { LIMITS } from './limits';
import { ScopeFieldsDto } from './scope-fields.dto';

export class SearchDto extends ScopeFieldsDto {
  @IsString({ message: 'query must be a string' })
  @Length(1, LIMITS.query, { message: `query must be 1 to ${LIMITS.query} characters` })
  query: string;

  @IsOptional()
  @ToInt()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(LIMITS.pageSize, { message: 'limit must be between 1 and 100' })
  limit?: number;

  /** User scope only (ignored in workspace scope). */
  @IsOptional()
  @IsString({ message: 'source_site must be a string' })
  @Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` })
  source_site?: string;

  /** User scope only: one namespace or a list; matches memories in any of them. */
  @IsOptional()
  @IsStringOrStringArray(50, LIMITS.namespace)
  namespace_scope?: string | string[];

  /** User scope only: only memories created at or before this time. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'as_of must be an ISO-8601 timestamp' })
  as_of?: string;

  /** "Now" for recency scoring (default: the server's clock). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'reference_time must be an ISO-8601 timestamp' })
  reference_time?: string;
}
