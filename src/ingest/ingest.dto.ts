import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { IsOneLine, IsSmallJsonObject } from '../common/validation/transforms';
import { VISIBILITY_MODES, VISIBILITY_MODES_MESSAGE, type VisibilityMode } from '../database/access/visibility';
import { LIMITS } from '../memories/dto/limits';
import { WriterScopeFieldsDto } from '../memories/dto/scope-fields.dto';
import { ExpiresAtField } from '../memories/dto/shared-fields';

export class IngestDto extends WriterScopeFieldsDto {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: LIMITS.conversation,
    description: 'The text to remember: a conversation (`user: ...` lines) or any prose.',
    example: 'user: I moved to Lisbon last year.\nuser: I prefer window seats on flights.',
  })
  @IsString({ message: 'conversation must be a string' })
  @Length(1, LIMITS.conversation, { message: `conversation must be 1 to ${LIMITS.conversation} characters` })
  conversation: string;

  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: LIMITS.sourceSite,
    description:
      'Where the text comes from; decides its trust score. One line of printable text, screened by the write gate like the text (422 when blocked).',
    example: 'chat.example',
  })
  @IsString({ message: 'source_site must be a string' })
  @Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` })
  @IsOneLine()
  source_site: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: LIMITS.sourceUrl,
    description: 'One line of printable text, screened by the write gate (422 when blocked).',
    example: 'https://chat.example/c/42',
  })
  @IsOptional()
  @IsString({ message: 'source_url must be a string' })
  @MaxLength(LIMITS.sourceUrl, { message: `source_url must be at most ${LIMITS.sourceUrl} characters` })
  @IsOneLine()
  source_url?: string;

  @ApiPropertyOptional({
    type: String,
    enum: VISIBILITY_MODES,
    description: 'Workspace scope only (default `workspace`); 400 in user scope.',
    example: 'workspace',
  })
  @IsOptional()
  @IsIn(VISIBILITY_MODES, { message: VISIBILITY_MODES_MESSAGE })
  visibility?: VisibilityMode;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `A JSON object of at most ${LIMITS.metadataBytes / 1024} KB serialized, stored with every memory of this call. Raw data: returned as given, never screened and never rendered into injection_text.`,
    example: { topic: 'travel' },
  })
  @IsOptional()
  @IsSmallJsonObject(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: LIMITS.namespace,
    description: 'One line of printable text, screened by the write gate (422 when blocked).',
    example: 'personal',
  })
  @IsOptional()
  @IsString({ message: 'namespace must be a string' })
  @Length(1, LIMITS.namespace, { message: `namespace must be 1 to ${LIMITS.namespace} characters` })
  @IsOneLine()
  namespace?: string;

  @ExpiresAtField(
    'When the memories of this call stop being returned (null or absent: never). They are purged EXPIRED_RETENTION_DAYS later.',
  )
  expires_at?: string;
}

export class QuickIngestDto extends IngestDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Store `conversation` verbatim as one memory (still through the write gate).',
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: 'skip_extraction must be a boolean' })
  skip_extraction?: boolean;
}
