import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

import { IsSmallJsonObject, LowerCase } from '../../common/validation/transforms';
import { VISIBILITY_MODES, VISIBILITY_MODES_MESSAGE, type VisibilityMode } from '../../database/access/visibility';
import { AGENT_EXAMPLE, UUID_EXAMPLE } from '../../openapi/scope.schema';
import { LIMITS } from './limits';
import { OwnerScopeFieldsDto, ScopeFieldsDto, WriterScopeFieldsDto } from './scope-fields.dto';
import { ExpiresAtField, IncludeExpiredFlag } from './shared-fields';

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

/** GET of one memory: the scope parameters and include_expired. */
export class GetQueryDto extends ScopeFieldsDto {
  @IncludeExpiredFlag()
  include_expired?: boolean;
}

/**
 * PATCH of one memory (CONTRACT section 12): any of visibility, content, metadata and
 * expires_at, at least one. In a workspace only the owning agent may change it; in user scope
 * the user.
 */
export class UpdateMemoryDto extends WriterScopeFieldsDto {
  @ApiPropertyOptional({
    type: String,
    enum: VISIBILITY_MODES,
    description: 'Workspace memories only. Making a memory not `restricted` drops its grants.',
    example: 'agent_only',
  })
  @IsOptional()
  @IsIn(VISIBILITY_MODES, { message: VISIBILITY_MODES_MESSAGE })
  visibility?: VisibilityMode;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: LIMITS.conversation,
    description: 'New text: passes the write gate (422 when blocked), is re-embedded and re-indexed.',
    example: 'I moved to Porto this spring.',
  })
  @IsOptional()
  @IsString({ message: 'content must be a string' })
  @Length(1, LIMITS.conversation, { message: `content must be 1 to ${LIMITS.conversation} characters` })
  content?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `Replaces the memory's metadata: a JSON object of at most ${LIMITS.metadataBytes / 1024} KB serialized.`,
    example: { topic: 'travel' },
  })
  @IsOptional()
  @IsSmallJsonObject(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;

  @ExpiresAtField('When the memory stops being returned; `null` clears it.')
  expires_at?: string | null;
}

export class CreateGrantDto extends OwnerScopeFieldsDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'The agent that may read the restricted memory.', example: AGENT_EXAMPLE })
  @IsUUID('all', { message: 'grantee_agent_id must be a valid UUID' })
  @LowerCase()
  grantee_agent_id: string;
}
