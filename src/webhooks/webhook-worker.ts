import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import { WebhooksRepository, type ClaimedDelivery } from '../database/webhooks.repository';
import type { AppEnv } from '../env/env.schema';
import { webhookHeaders } from './webhook-signature';
import { resolvesPrivate } from './webhook-target';

/** Deliveries claimed per round. */
const BATCH = 20;
/** Longest wait between attempts. */
const MAX_RETRY_MS = 6 * 3600_000;

/**
 * Sends the outbox (webhook_outbox) from every instance: each round claims due rows
 * (WebhooksRepository.claimDue: SKIP LOCKED and a lease, so an event goes out from one
 * instance at a time), POSTs each payload with its Standard Webhooks headers, and records
 * the answer: 2xx delivered; anything else (status, timeout, refused connection, a redirect,
 * a target that resolves to a private address when those are refused) a failed attempt,
 * retried after WEBHOOK_RETRY_BASE_MS doubled per attempt, dead after WEBHOOK_MAX_ATTEMPTS.
 * Logs carry ids and statuses only.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<number> | null = null;
  private stopped = false;
  private readonly interval: number;
  private readonly maxAttempts: number;
  private readonly retryBase: number;
  private readonly timeout: number;
  private readonly allowPrivate: boolean;

  constructor(
    private readonly repository: WebhooksRepository,
    config: ConfigService<AppEnv, true>,
  ) {
    this.interval = config.get('WEBHOOK_POLL_INTERVAL_MS', { infer: true });
    this.maxAttempts = config.get('WEBHOOK_MAX_ATTEMPTS', { infer: true });
    this.retryBase = config.get('WEBHOOK_RETRY_BASE_MS', { infer: true });
    this.timeout = config.get('WEBHOOK_TIMEOUT_MS', { infer: true });
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_TARGETS', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.interval > 0) this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.round?.catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.deliverDue()
        .catch((error: Error) => this.logger.warn(`delivery round failed: ${error.message}`))
        .finally(() => this.schedule());
    }, this.interval);
    this.timer.unref();
  }

  /** One round: claim due deliveries and send them. Returns how many were attempted. */
  deliverDue(): Promise<number> {
    if (this.round) return this.round;
    this.round = (async () => {
      const claimed = await this.repository.claimDue(BATCH, this.timeout + 30_000);
      await Promise.all(claimed.map((delivery) => this.send(delivery)));
      return claimed.length;
    })().finally(() => (this.round = null));
    return this.round;
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const failure = await this.attempt(delivery);
    if (failure === null) {
      await this.repository.markDelivered(delivery.id);
      return;
    }
    const retryIn = Math.min(this.retryBase * 2 ** (delivery.attempts - 1), MAX_RETRY_MS);
    await this.repository.markFailed(delivery.id, this.maxAttempts, retryIn, failure);
    this.logger.warn({ msg: 'webhook delivery failed', delivery_id: delivery.id, attempt: delivery.attempts, error: failure });
  }

  /** null when the receiver answered 2xx, else why the attempt failed. */
  private async attempt(delivery: ClaimedDelivery): Promise<string | null> {
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      if (!this.allowPrivate && (await resolvesPrivate(delivery.url))) return 'target resolves to a private address';
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...webhookHeaders(delivery.secret, delivery.id, timestamp, body) },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeout),
      });
      await response.body?.cancel().catch(() => undefined);
      return response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`;
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError') return `timed out after ${this.timeout} ms`;
      return e.cause?.code ?? e.name ?? 'request failed';
    }
  }
}
