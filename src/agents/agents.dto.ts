import { IsNumber, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { LowerCase } from '../common/validation/transforms';

class AgentKeyDto {
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id: string;
}

export class GetTrustQueryDto extends AgentKeyDto {}

export class PutTrustDto extends AgentKeyDto {
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'trust_level must be a number between 0 and 1' })
  @Min(0, { message: 'trust_level must be a number between 0 and 1' })
  @Max(1, { message: 'trust_level must be a number between 0 and 1' })
  trust_level: number;

  @IsOptional()
  @IsString({ message: 'display_name must be a string' })
  @Length(1, 200, { message: 'display_name must be 1 to 200 characters' })
  display_name?: string;
}
