import { Module } from '@nestjs/common';

import { WebhooksRepository } from '../database/webhooks.repository';
import { WebhookDeliveryWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: the admin's subscriptions and the delivery worker. The events themselves are
 * written by the door with each change (database/access/webhook-outbox.ts).
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService, WebhookDeliveryWorker],
  exports: [WebhookDeliveryWorker],
})
export class WebhooksModule {}
