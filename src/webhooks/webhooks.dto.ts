import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';

import { LowerCase, ToInt } from '../common/validation/transforms';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../database/access/webhook-outbox';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';
import { SECRET_PATTERN } from './webhook-signature';
import { MAX_WEBHOOK_URL } from './webhook-target';

export const EVENTS_MESSAGE = `events must be a non-empty list of ${WEBHOOK_EVENTS.join(', ')}`;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export const MAX_DELIVERY_LIMIT = 500;

export class CreateWebhookDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 256, description: 'The user whose changes are reported.', example: 'alice' })
  @IsString({ message: 'user_id (string) is required' })
  @Length(1, 256, { message: 'user_id (string) is required' })
  user_id: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'With agent_id: events about what that agent can read in this workspace. Without: the user personal memories.',
    example: WORKSPACE_EXAMPLE,
  })
  @IsOptional()
  @IsUUID('all', { message: 'workspace_id must be a valid UUID' })
  @LowerCase()
  workspace_id?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'Required with workspace_id.', example: AGENT_EXAMPLE })
  @IsOptional()
  @IsUUID('all', { message: 'agent_id must be a valid UUID' })
  @LowerCase()
  agent_id?: string;

  @ApiProperty({
    type: String,
    maxLength: MAX_WEBHOOK_URL,
    description: 'http(s) URL the events are POSTed to; loopback and private addresses are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS.',
    example: 'https://hooks.example.com/atrium',
  })
  @IsString({ message: 'url must be an absolute http or https URL' })
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, minItems: 1, maxItems: WEBHOOK_EVENTS.length, example: ['memory.stored'] })
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: EVENTS_MESSAGE })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: EVENTS_MESSAGE })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: EVENTS_MESSAGE })
  events: WebhookEventType[];

  @ApiPropertyOptional({
    type: String,
    pattern: SECRET_PATTERN.source,
    description: 'Standard Webhooks signing secret (`whsec_` + base64 of 24 to 64 bytes); omitted: one is generated.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  @IsOptional()
  @IsString({ message: 'secret must be whsec_ followed by the base64 of 24 to 64 bytes' })
  @Matches(SECRET_PATTERN, { message: 'secret must be whsec_ followed by the base64 of 24 to 64 bytes' })
  secret?: string;
}

export class ListWebhooksQueryDto {
  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 256, description: 'Only this user subscriptions.', example: 'alice' })
  @IsOptional()
  @IsString({ message: 'user_id must be 1 to 256 characters' })
  @Length(1, 256, { message: 'user_id must be 1 to 256 characters' })
  user_id?: string;
}

export class WebhookIdParams {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  @IsUUID('all', { message: 'id must be a valid UUID' })
  id: string;
}

export class WebhookDeliveriesQueryDto extends ListWebhooksQueryDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  @IsOptional()
  @IsUUID('all', { message: 'subscription_id must be a valid UUID' })
  subscription_id?: string;

  @ApiPropertyOptional({ type: String, enum: DELIVERY_STATUSES, description: '`dead`: the dead letters.', example: 'dead' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: 'status must be one of pending, delivered, dead' })
  status?: (typeof DELIVERY_STATUSES)[number];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DELIVERY_LIMIT, default: 100 })
  @IsOptional()
  @ToInt()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: `limit must be between 1 and ${MAX_DELIVERY_LIMIT}` })
  @Max(MAX_DELIVERY_LIMIT, { message: `limit must be between 1 and ${MAX_DELIVERY_LIMIT}` })
  limit?: number;
}
