import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';

import { LowerCase } from '../../common/validation/transforms';
import { VISIBILITY_MODES, VISIBILITY_MODES_MESSAGE, type VisibilityMode } from '../../database/access/visibility';
import { AGENT_EXAMPLE, UUID_EXAMPLE } from '../../openapi/scope.schema';
import { OwnerScopeFieldsDto } from './scope-fields.dto';

export class MemoryIdParams {
  @ApiProperty({
    type: String,
    format: 'uuid',
    description: 'The memory. Not a UUID: 400 `id must be a valid UUID`.',
    example: UUID_EXAMPLE,
  })
  @IsUUID('all', { message: 'id must be a valid UUID' })
  @LowerCase()
  id: string;
}

export class GrantParams extends MemoryIdParams {
  @ApiProperty({ type: String, format: 'uuid', description: 'The agent whose grant is revoked.', example: AGENT_EXAMPLE })
  @IsUUID('all', { message: 'grantee_agent_id must be a valid UUID' })
  @LowerCase()
  grantee_agent_id: string;
}

export class UpdateVisibilityDto extends OwnerScopeFieldsDto {
  @ApiProperty({
    type: String,
    enum: VISIBILITY_MODES,
    description: 'Making a memory not `restricted` drops its grants.',
    example: 'agent_only',
  })
  @IsIn(VISIBILITY_MODES, { message: VISIBILITY_MODES_MESSAGE })
  visibility: VisibilityMode;
}

export class CreateGrantDto extends OwnerScopeFieldsDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'The agent that may read the restricted memory.', example: AGENT_EXAMPLE })
  @IsUUID('all', { message: 'grantee_agent_id must be a valid UUID' })
  @LowerCase()
  grantee_agent_id: string;
}
