import { IsIn, IsUUID } from 'class-validator';

import { LowerCase } from '../../common/validation/transforms';
import { VISIBILITIES } from './ingest.dto';
import { ScopeFieldsDto, WriterScopeFieldsDto } from './scope-fields.dto';

export class MemoryIdParams {
  @IsUUID('all', { message: 'id must be a valid UUID' })
  @LowerCase()
  id: string;
}

export class GrantParams extends MemoryIdParams {
  @IsUUID('all', { message: 'grantee_agent_id must be a valid UUID' })
  @LowerCase()
  grantee_agent_id: string;
}

/** GET/DELETE of one memory: only the scope parameters. */
export class ScopeQueryDto extends ScopeFieldsDto {}

export class UpdateVisibilityDto extends WriterScopeFieldsDto {
  @IsIn(VISIBILITIES, { message: 'visibility must be one of workspace, agent_only, restricted' })
  visibility: (typeof VISIBILITIES)[number];
}

export class CreateGrantDto extends WriterScopeFieldsDto {
  @IsUUID('all', { message: 'grantee_agent_id must be a valid UUID' })
  @LowerCase()
  grantee_agent_id: string;
}

export class OwnerScopeQueryDto extends WriterScopeFieldsDto {}
