import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

import { ScopeFieldsDto } from './scope-fields.dto';
import { IncludeExpiredFlag } from './shared-fields';

/** GET /v1/memories/export: the scope parameters (as list) and two flags. */
export class ExportQueryDto extends ScopeFieldsDto {
  @ApiPropertyOptional({ type: Boolean, default: false, description: "Add each memory's vector (`embedding`, an array of numbers)." })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'include_vectors must be true or false' })
  include_vectors?: boolean;

  @IncludeExpiredFlag()
  include_expired?: boolean;
}
