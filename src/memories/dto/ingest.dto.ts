import { IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { IsSmallJsonObject } from '../../common/validation/transforms';
import { LIMITS } from './limits';
import { WriterScopeFieldsDto } from './scope-fields.dto';

export const VISIBILITIES = ['workspace', 'agent_only', 'restricted'] as const;

export class IngestDto extends WriterScopeFieldsDto {
  @IsString({ message: 'conversation must be a string' })
  @Length(1, LIMITS.conversation, { message: `conversation must be 1 to ${LIMITS.conversation} characters` })
  conversation: string;

  @IsString({ message: 'source_site must be a string' })
  @Length(1, LIMITS.sourceSite, { message: `source_site must be 1 to ${LIMITS.sourceSite} characters` })
  source_site: string;

  @IsOptional()
  @IsString({ message: 'source_url must be a string' })
  @MaxLength(LIMITS.sourceUrl, { message: `source_url must be at most ${LIMITS.sourceUrl} characters` })
  source_url?: string;

  @IsOptional()
  @IsIn(VISIBILITIES, { message: 'visibility must be one of workspace, agent_only, restricted' })
  visibility?: (typeof VISIBILITIES)[number];

  @IsOptional()
  @IsSmallJsonObject(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsString({ message: 'namespace must be a string' })
  @Length(1, LIMITS.namespace, { message: `namespace must be 1 to ${LIMITS.namespace} characters` })
  namespace?: string;
}

export class QuickIngestDto extends IngestDto {
  @IsOptional()
  @IsBoolean({ message: 'skip_extraction must be a boolean' })
  skip_extraction?: boolean;
}
