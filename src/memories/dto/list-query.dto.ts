import { IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { LowerCase, ToInt } from '../../common/validation/transforms';
import { LIMITS } from './limits';
import { ScopeFieldsDto } from './scope-fields.dto';

export class ListQueryDto extends ScopeFieldsDto {
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(LIMITS.pageSize, { message: 'limit must be between 1 and 100' })
  limit?: number;

  @IsOptional()
  @ToInt()
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: 'offset must be 0 or more' })
  @Max(1_000_000, { message: 'offset must be at most 1000000' })
  offset?: number;

  /** User scope only; ignored in workspace scope (spec 4.2.6). */
  @IsOptional()
  @IsString({ message: 'source_site must be a string' })
  @Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` })
  source_site?: string;

  /** User scope only; ignored in workspace scope. A malformed UUID is still an error. */
  @IsOptional()
  @IsUUID('all', { message: 'episode_id must be a valid UUID' })
  @LowerCase()
  episode_id?: string;
}
