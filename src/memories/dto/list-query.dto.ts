import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { LowerCase, ToInt } from '../../common/validation/transforms';
import { UUID_EXAMPLE } from '../../openapi/scope.schema';
import { LIMITS } from './limits';
import { ScopeFieldsDto } from './scope-fields.dto';

export class ListQueryDto extends ScopeFieldsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: LIMITS.pageSize, default: 20, example: 20 })
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be between 1 and 100' })
  @Max(LIMITS.pageSize, { message: 'limit must be between 1 and 100' })
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1_000_000, default: 0, example: 0 })
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: 'offset must be 0 or more' })
  @Max(1_000_000, { message: 'offset must be at most 1000000' })
  offset?: number;

  /** User scope only; ignored in workspace scope (spec 4.2.6). */
  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: LIMITS.sourceSite, description: 'User scope only; ignored in workspace scope.', example: 'chat.example' })
  @IsOptional()
  @IsString({ message: 'source_site must be a string' })
  @Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` })
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
}
