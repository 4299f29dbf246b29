import type { Logger } from '@nestjs/common';
import { Client } from 'pg';

import { RUNTIME_CONFIG_CHANNEL } from '../database/runtime-config.store';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5000;

/**
 * LISTEN on a dedicated connection (never through a pooler: PgBouncer in transaction mode
 * hands the session to someone else after each transaction, and the LISTEN with it). Calls
 * `signal` on every notification and each time it is listening again after a drop, because
 * changes made while it was away were announced to nobody. Reconnects with backoff until
 * stopped. It only speeds things up: the version poll in SettingsService is what guarantees
 * that every change arrives.
 */
export class ConfigChangeListener {
  private client: Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private stopped = false;

  constructor(
    private readonly connectionString: string,
    private readonly signal: (reason: 'notification' | 'listening') => void,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.connect().catch((error: Error) => this.dropped(error));
  }

  /** Whether a LISTEN connection is up right now (for logs and tests). */
  listening(): boolean {
    return this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.connectionString, keepAlive: true, application_name: 'atrium-config-listener' });
    client.on('notification', () => this.signal('notification'));
    client.on('error', (error) => this.dropped(error, client));
    client.on('end', () => this.dropped(new Error('connection ended'), client));
    try {
      await client.connect();
      await client.query(`LISTEN ${RUNTIME_CONFIG_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    this.signal('listening');
  }

  /** A failed connect, or a drop of the current client (events of older clients are ignored). */
  private dropped(error: Error, from?: Client): void {
    if (this.stopped || (from !== undefined && from !== this.client)) return;
    if (this.client) this.logger.warn({ msg: 'runtime config listener lost its connection; reconnecting', error: error.message });
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.start(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }
}
