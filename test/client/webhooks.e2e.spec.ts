import { createServer, type Server } from 'node:net';

import { AtriumError, type FetchLike } from '../../src/client';
import { WebhookDeliveryWorker } from '../../src/webhooks/webhook-worker';
import { ADMIN_TOKEN } from '../support/api-keys';
import { newUser } from '../support/ids';
import { startListeningApp, type ListeningApp } from './listening-app';

/** A loopback URL nobody listens on: a port taken and released again. */
async function deadUrl(): Promise<string> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

/**
 * The client's webhook methods against the real service: create (secret once), list (never the
 * secret), deliveries by status (a dead letter after WEBHOOK_MAX_ATTEMPTS failed attempts), delete.
 */
describe('AtriumClient webhooks', () => {
  let app: ListeningApp;

  beforeAll(async () => {
    app = await startListeningApp({
      ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '0',
      WEBHOOK_RETRY_BASE_MS: '10',
      WEBHOOK_MAX_ATTEMPTS: '2',
    });
  });
  afterAll(async () => {
    await app.t.close();
  });

  it('creates, lists, shows a dead letter and deletes, camel-cased', async () => {
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const user = newUser('client-wh');
    const url = await deadUrl();
    const created = await admin.createWebhook({ userId: user, url, events: ['memory.stored', 'memory.deleted'] });
    expect(created).toMatchObject({ userId: user, url, events: ['memory.stored', 'memory.deleted'], workspaceId: null, agentId: null });
    expect(created.secret).toMatch(/^whsec_/);
    expect(typeof created.createdAt).toBe('string');

    const listed = await admin.listWebhooks({ userId: user });
    expect(listed.count).toBe(1);
    expect(listed.subscriptions[0]).toEqual({
      id: created.id,
      userId: user,
      workspaceId: null,
      agentId: null,
      url,
      events: ['memory.stored', 'memory.deleted'],
      createdAt: created.createdAt,
    });

    const stored = await app
      .client()
      .ingestQuick({ userId: user, sourceSite: 'client', conversation: 'Tell the hook', skipExtraction: true });
    expect(stored.storedMemoryIds).toHaveLength(1);
    const pending = await admin.webhookDeliveries({ userId: user, status: 'pending' });
    expect(pending.deliveries).toEqual([
      expect.objectContaining({ subscriptionId: created.id, userId: user, eventType: 'memory.stored', status: 'pending', attempts: 0 }),
    ]);

    const worker = app.t.app.get(WebhookDeliveryWorker);
    for (let round = 0; round < 40; round++) {
      if ((await admin.webhookDeliveries({ subscriptionId: created.id, status: 'pending' })).count === 0) break;
      await worker.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const dead = await admin.webhookDeliveries({ subscriptionId: created.id, status: 'dead', limit: 5 });
    expect(dead.count).toBe(1);
    expect(dead.deliveries[0]).toMatchObject({ id: pending.deliveries[0].id, status: 'dead', attempts: 2, deliveredAt: null });
    expect(dead.deliveries[0].lastError).toEqual(expect.any(String));
    expect((await admin.webhookDeliveries({ subscriptionId: created.id, status: 'delivered' })).count).toBe(0);

    expect(await admin.deleteWebhook({ id: created.id })).toEqual({ success: true });
    expect((await admin.listWebhooks({ userId: user })).count).toBe(0);
    const again = await admin.deleteWebhook({ id: created.id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(AtriumError);
    expect((again as AtriumError).status).toBe(404);
  });

  it('names the field of a bad query in the error', async () => {
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const bad = await admin.webhookDeliveries({ status: 'lost' as 'dead' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(AtriumError);
    expect((bad as AtriumError).status).toBe(400);
    expect((bad as AtriumError).message).toContain('status');
  });

  it('does not retry createWebhook (a repeat would subscribe twice); the reads are retried', async () => {
    let sent = 0;
    const busy: FetchLike = async () => {
      sent++;
      return { status: 503, statusText: 'Service Unavailable', headers: { get: () => null }, text: async () => '{"error":"busy"}' };
    };
    const admin = app.client({ adminToken: ADMIN_TOKEN, fetch: busy, retries: { attempts: 2, baseDelayMs: 1 } });
    await expect(admin.createWebhook({ userId: 'u', url: 'http://127.0.0.1/x', events: ['memory.stored'] })).rejects.toThrow(AtriumError);
    expect(sent).toBe(1);
    sent = 0;
    await expect(admin.listWebhooks()).rejects.toThrow(AtriumError);
    expect(sent).toBe(3);
  });

  it('refuses the webhook methods without the adminToken option, before any request', async () => {
    await expect(app.client().webhookDeliveries()).rejects.toThrow('this call needs the adminToken option');
  });
});
