import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import type {
  CreatedWebhookSubscriptionWire,
  WebhookDeliveryWire,
  WebhookSubscriptionWire,
  WireWebhookEvent,
} from '../contract/admin-wire-types';
import { WEBHOOK_EVENTS } from '../database/access/webhook-outbox';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';
import { DELIVERY_STATUSES } from './webhooks.dto';

/** Response shapes of /v1/admin/webhooks. */

@ApiSchema({ name: 'WebhookSubscription' })
export class WebhookSubscriptionDoc implements WebhookSubscriptionWire {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: WORKSPACE_EXAMPLE })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: AGENT_EXAMPLE })
  agent_id: string | null;

  @ApiProperty({ type: String, example: 'https://hooks.example.com/atrium' })
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, example: ['memory.stored'] })
  events: WireWebhookEvent[];

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T12:00:00.000Z' })
  created_at: string;
}

@ApiSchema({ name: 'CreatedWebhookSubscription' })
export class CreatedWebhookSubscriptionDoc extends WebhookSubscriptionDoc implements CreatedWebhookSubscriptionWire {
  @ApiProperty({ type: String, description: 'The signing secret, shown this once.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;
}

@ApiSchema({ name: 'WebhookSubscriptionList' })
export class WebhookSubscriptionListDoc {
  @ApiProperty({ type: [WebhookSubscriptionDoc] })
  subscriptions: WebhookSubscriptionDoc[];

  @ApiProperty({ type: 'integer', example: 1 })
  count: number;
}

@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryDoc implements WebhookDeliveryWire {
  @ApiProperty({ type: String, format: 'uuid', description: 'The webhook-id header, the same on every attempt.', example: UUID_EXAMPLE })
  id: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    description: 'The event (one per change, shared by its subscribers).',
    example: UUID_EXAMPLE,
  })
  event_id: string;

  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  subscription_id: string;

  @ApiProperty({ type: String, example: 'alice' })
  user_id: string;

  @ApiProperty({ type: String, enum: WEBHOOK_EVENTS, example: 'memory.stored' })
  event_type: WireWebhookEvent;

  @ApiProperty({ type: String, enum: DELIVERY_STATUSES, example: 'delivered' })
  status: 'pending' | 'delivered' | 'dead';

  @ApiProperty({ type: 'integer', example: 1 })
  attempts: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T12:00:00.000Z' })
  next_attempt_at: string;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed (a status or an error code).', example: null })
  last_error: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T12:00:00.000Z' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-25T12:00:00.500Z' })
  delivered_at: string | null;
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListDoc {
  @ApiProperty({ type: [WebhookDeliveryDoc] })
  deliveries: WebhookDeliveryDoc[];

  @ApiProperty({ type: 'integer', example: 1 })
  count: number;
}
