import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { LowerCase } from '../common/validation/transforms';
import { AGENT_EXAMPLE, USER_ID_SCHEMA } from '../openapi/scope.schema';

class AgentKeyDto {
  @ApiProperty(USER_ID_SCHEMA)
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The agent (trust is kept per user and agent).', example: AGENT_EXAMPLE })
  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id: string;
}

export class GetTrustQueryDto extends AgentKeyDto {}

export class PutTrustDto extends AgentKeyDto {
  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: 1,
    description: "A workspace write's trust score is the lower of its source's score and this level.",
    example: 0.2,
  })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'trust_level must be a number between 0 and 1' })
  @Min(0, { message: 'trust_level must be a number between 0 and 1' })
  @Max(1, { message: 'trust_level must be a number between 0 and 1' })
  trust_level: number;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 200, description: 'Omitted: the stored name is kept.', example: 'web scraper' })
  @IsOptional()
  @IsString({ message: 'display_name must be a string' })
  @Length(1, 200, { message: 'display_name must be 1 to 200 characters' })
  display_name?: string;
}
