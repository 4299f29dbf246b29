import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import { DomainError } from '../common/errors/domain-error';
import type {
  CreatedWebhookSubscriptionWire,
  WebhookDeliveryWire,
  WebhookSubscriptionWire,
  WireWebhookEvent,
} from '../contract/admin-wire-types';
import { WebhooksRepository, type WebhookDeliveryRow, type WebhookSubscriptionRow } from '../database/webhooks.repository';
import type { AppEnv } from '../env/env.schema';
import { newWebhookSecret, secretKey } from './webhook-signature';
import { targetProblem } from './webhook-target';
import type { CreateWebhookDto, WebhookDeliveriesQueryDto } from './webhooks.dto';

const iso = (value: Date): string => new Date(value).toISOString();

const toSubscription = (row: WebhookSubscriptionRow): WebhookSubscriptionWire => ({
  id: row.id,
  user_id: row.user_id,
  workspace_id: row.workspace_id,
  agent_id: row.agent_id,
  url: row.url,
  events: row.events as WireWebhookEvent[],
  created_at: iso(row.created_at),
});

const toDelivery = (row: WebhookDeliveryRow): WebhookDeliveryWire => ({
  id: row.id,
  event_id: row.event_id,
  subscription_id: row.subscription_id,
  user_id: row.user_id,
  event_type: row.event_type as WireWebhookEvent,
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: iso(row.next_attempt_at),
  last_error: row.last_error,
  created_at: iso(row.created_at),
  delivered_at: row.delivered_at === null ? null : iso(row.delivered_at),
});

const invalid = (message: string): never => {
  throw new DomainError('VALIDATION_FAILED', message);
};

/** The admin's webhook subscriptions and the view of their deliveries. */
@Injectable()
export class WebhooksService {
  private readonly allowPrivate: boolean;

  constructor(
    private readonly repository: WebhooksRepository,
    config: ConfigService<AppEnv, true>,
  ) {
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_TARGETS', { infer: true });
  }

  async create(dto: CreateWebhookDto): Promise<CreatedWebhookSubscriptionWire> {
    if ((dto.workspace_id === undefined) !== (dto.agent_id === undefined)) invalid('workspace_id and agent_id go together');
    const problem = targetProblem(dto.url, this.allowPrivate);
    if (problem) invalid(problem);
    const secret = dto.secret ?? newWebhookSecret();
    if (!secretKey(secret)) invalid('secret must be whsec_ followed by the base64 of 24 to 64 bytes');
    const row = await this.repository.create({
      id: randomUUID(),
      userId: dto.user_id,
      workspaceId: dto.workspace_id ?? null,
      agentId: dto.agent_id ?? null,
      url: dto.url,
      events: [...new Set(dto.events)],
      secret,
    });
    return { ...toSubscription(row), secret };
  }

  async list(userId?: string): Promise<{ subscriptions: WebhookSubscriptionWire[]; count: number }> {
    const subscriptions = (await this.repository.list(userId)).map(toSubscription);
    return { subscriptions, count: subscriptions.length };
  }

  async delete(id: string): Promise<{ success: true }> {
    if (!(await this.repository.delete(id))) throw new DomainError('WEBHOOK_NOT_FOUND');
    return { success: true };
  }

  async deliveries(q: WebhookDeliveriesQueryDto): Promise<{ deliveries: WebhookDeliveryWire[]; count: number }> {
    const rows = await this.repository.deliveries({
      userId: q.user_id,
      subscriptionId: q.subscription_id,
      status: q.status,
      limit: q.limit ?? 100,
    });
    const deliveries = rows.map(toDelivery);
    return { deliveries, count: deliveries.length };
  }
}
