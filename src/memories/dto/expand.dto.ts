import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';

import { LowerCaseEach } from '../../common/validation/transforms';
import { UUID_EXAMPLE } from '../../openapi/scope.schema';
import { LIMITS } from './limits';
import { ScopeFieldsDto } from './scope-fields.dto';

export class ExpandDto extends ScopeFieldsDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: LIMITS.expandIds,
    description: 'Answered in this order; unknown and invisible ids are left out.',
    example: [UUID_EXAMPLE],
  })
  @IsArray({ message: 'memory_ids must be an array of UUIDs' })
  @ArrayMinSize(1, { message: `memory_ids must hold 1 to ${LIMITS.expandIds} ids` })
  @ArrayMaxSize(LIMITS.expandIds, { message: `memory_ids must hold 1 to ${LIMITS.expandIds} ids` })
  @IsUUID('all', { each: true, message: 'memory_ids must contain only valid UUIDs' })
  @LowerCaseEach()
  memory_ids: string[];
}
