import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Access } from '../common/identity/route-access';
import { ADMIN_SECURITY, ApiAdminErrors, ApiErrors, ApiInternalError } from '../openapi/api-errors';
import { SuccessDoc } from '../openapi/success.responses';
import {
  CreateWebhookDto,
  EVENTS_MESSAGE,
  ListWebhooksQueryDto,
  MAX_DELIVERY_LIMIT,
  WebhookDeliveriesQueryDto,
  WebhookIdParams,
} from './webhooks.dto';
import { CreatedWebhookSubscriptionDoc, WebhookDeliveryListDoc, WebhookSubscriptionListDoc } from './webhooks.responses';
import { WebhooksService } from './webhooks.service';

/** Webhook subscriptions and their deliveries; the admin token only (404 without ATRIUM_ADMIN_TOKEN). */
@ApiTags('Admin')
@ApiBearerAuth(ADMIN_SECURITY)
@ApiAdminErrors()
@ApiInternalError()
@Access('admin')
@Controller('v1/admin/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Subscribe a URL to webhook events',
    description:
      'Events are signed in the Standard Webhooks layout; the `secret` is in this answer only. A subscription with workspace_id and agent_id receives events about what that agent can read; without, about the user personal memories.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookSubscriptionDoc, description: 'The subscription, with its signing secret (shown once).' })
  @ApiErrors({
    400: [
      'user_id (string) is required',
      'workspace_id and agent_id go together',
      'url must be an absolute http or https URL',
      'url must not point to a loopback, private or link-local address',
      EVENTS_MESSAGE,
      'secret must be whsec_ followed by the base64 of 24 to 64 bytes',
    ],
    body: true,
  })
  create(@Body() dto: CreateWebhookDto) {
    return this.webhooks.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List webhook subscriptions', description: 'Newest first; never the secret.' })
  @ApiOkResponse({ type: WebhookSubscriptionListDoc, description: 'The subscriptions.' })
  @ApiErrors({ 400: ['user_id must be 1 to 256 characters'] })
  list(@Query() q: ListWebhooksQueryDto) {
    return this.webhooks.list(q.user_id);
  }

  @Get('deliveries')
  @ApiOperation({
    summary: 'List webhook deliveries',
    description: `Newest first: pending, delivered and dead-lettered (\`status=dead\`) events per subscriber; limit 1..${MAX_DELIVERY_LIMIT}, default 100.`,
  })
  @ApiOkResponse({ type: WebhookDeliveryListDoc, description: 'The deliveries.' })
  @ApiErrors({
    400: [
      'subscription_id must be a valid UUID',
      'status must be one of pending, delivered, dead',
      `limit must be between 1 and ${MAX_DELIVERY_LIMIT}`,
    ],
  })
  deliveries(@Query() q: WebhookDeliveriesQueryDto) {
    return this.webhooks.deliveries(q);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a webhook subscription', description: 'Its pending deliveries are dropped with it.' })
  @ApiOkResponse({ type: SuccessDoc, description: 'Deleted.' })
  @ApiErrors({ 400: ['id must be a valid UUID'], errors: ['WEBHOOK_NOT_FOUND'] })
  delete(@Param() p: WebhookIdParams) {
    return this.webhooks.delete(p.id);
  }
}
