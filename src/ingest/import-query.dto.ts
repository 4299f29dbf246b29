import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';

import { WriterScopeFieldsDto } from '../memories/dto/scope-fields.dto';

/** POST /v1/memories/import: the writer's scope parameters and the import's options (query string). */
export class ImportQueryDto extends WriterScopeFieldsDto {
  @ApiPropertyOptional({
    enum: ['skip', 'overwrite', 'new_id'],
    default: 'skip',
    description:
      'For a record whose id exists: keep the existing memory, overwrite it (its owner only; a new version), or import under a new id.',
  })
  @IsOptional()
  @IsIn(['skip', 'overwrite', 'new_id'], { message: 'on_conflict must be skip, overwrite or new_id' })
  on_conflict?: 'skip' | 'overwrite' | 'new_id';

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Check and count everything, write nothing (no memory, no lesson).' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'dry_run must be true or false' })
  dry_run?: boolean;

  @ApiPropertyOptional({
    enum: ['atrium', 'mem0'],
    default: 'atrium',
    description:
      "`atrium`: an Atrium export (NDJSON). `mem0`: mem0's export, a JSON array of `{ id, memory, user_id, agent_id, metadata, created_at }`.",
  })
  @IsOptional()
  @IsIn(['atrium', 'mem0'], { message: 'format must be atrium or mem0' })
  format?: 'atrium' | 'mem0';
}
