import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';

import { ToReal } from '../common/validation/real-number';
import { IsUserId, LowerCase } from '../common/validation/transforms';
import { AGENT_EXAMPLE, USER_ID_SCHEMA } from '../openapi/scope.schema';

class AgentKeyDto {
  @ApiPropertyOptional({
    ...USER_ID_SCHEMA,
    description: "The user. Required unless an API key says it (AUTH_MODE=api_key: the key's user; another is 403).",
  })
  @IsOptional()
  @IsUserId()
  user_id?: string;

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
    description:
      "A workspace write's trust score is the lower of its source's score and this level. Stored as a `real`: values below 1.2e-38 are stored as 0.",
    example: 0.2,
  })
  @ToReal()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'trust_level must be a number between 0 and 1' })
  @Min(0, { message: 'trust_level must be a number between 0 and 1' })
  @Max(1, { message: 'trust_level must be a number between 0 and 1' })
  trust_level: number;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 200,
    description: 'Omitted: the stored name is kept.',
    example: 'web scraper',
  })
  @IsOptional()
  @IsString({ message: 'display_name must be a string' })
  @Length(1, 200, { message: 'display_name must be 1 to 200 characters' })
  display_name?: string;
}
