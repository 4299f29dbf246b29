import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Length } from 'class-validator';

import { LowerCase } from '../common/validation/transforms';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';

/** GET /v1/admin/explain: one memory of one user, and the agent of a workspace asked about. */
export class ExplainQueryDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 256, description: 'The user the memory belongs to.', example: 'alice' })
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The workspace the agent reads in.', example: WORKSPACE_EXAMPLE })
  @IsUUID('all', { message: 'workspace_id must be a valid UUID' })
  @LowerCase()
  workspace_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The agent asked about.', example: AGENT_EXAMPLE })
  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The memory.', example: UUID_EXAMPLE })
  @IsUUID('all', { message: 'memory_id must be a valid UUID' })
  @LowerCase()
  memory_id: string;
}
