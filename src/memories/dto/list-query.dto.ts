import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';

import { LowerCase, ToInt } from '../../common/validation/transforms';
import { UUID_EXAMPLE } from '../../openapi/scope.schema';
import { ScopeFieldsDto } from './scope-fields.dto';
import { IncludeExpiredFlag, PageLimit, SourceSiteFilter } from './shared-fields';

export class ListQueryDto extends ScopeFieldsDto {
  @PageLimit(20)
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1_000_000, default: 0, example: 0 })
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: 'offset must be 0 or more' })
  @Max(1_000_000, { message: 'offset must be at most 1000000' })
  offset?: number;

  @SourceSiteFilter()
  source_site?: string;

  /** User scope only; ignored in workspace scope. A malformed UUID is still an error. */
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'User scope only (ignored in workspace scope); a malformed UUID is still a 400.',
    example: UUID_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'episode_id must be a valid UUID' })
  @LowerCase()
  episode_id?: string;

  @IncludeExpiredFlag()
  include_expired?: boolean;
}
