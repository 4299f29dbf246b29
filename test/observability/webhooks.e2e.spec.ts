import { WebhookDeliveryWorker } from '../../src/webhooks/webhook-worker';
import { ADMIN_TOKEN, adminAuth } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { createSecondInstance, createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';
import { verifyStandardWebhook, WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

const ALL_EVENTS = ['memory.stored', 'memory.updated', 'memory.deleted', 'lesson.recorded', 'lesson.matched'];

/**
 * Webhooks end to end with a receiver on loopback: subscriptions through the admin routes,
 * events written with each change and delivered by the worker (driven round by round here),
 * signed in the Standard Webhooks layout, retried until the receiver is back, dead-lettered
 * after WEBHOOK_MAX_ATTEMPTS, and never about a memory the subscriber could not read.
 */
describe('webhooks', () => {
  const receiver = new WebhookReceiver();
  let base: string;
  let t: TestApp;
  let worker: WebhookDeliveryWorker;

  beforeAll(async () => {
    base = await receiver.start();
    t = await createTestApp({
      ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '0',
      WEBHOOK_RETRY_BASE_MS: '10',
      WEBHOOK_MAX_ATTEMPTS: '3',
    });
    worker = t.app.get(WebhookDeliveryWorker);
  });

  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  const subscribe = async (body: Record<string, unknown>) => {
    const res = await t.http().post('/v1/admin/webhooks').set(adminAuth).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const store = async (scope: Record<string, unknown>, conversation: string, extra: Record<string, unknown> = {}) => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ ...scope, ...extra, source_site: 'tests', skip_extraction: true, conversation });
    expect(res.status).toBe(200);
    return res.body.stored_memory_ids[0] as string;
  };
  /** Rounds until nothing is due (failed attempts wait WEBHOOK_RETRY_BASE_MS, 10 ms, doubled). */
  const drain = async (): Promise<void> => {
    for (let i = 0; i < 50; i++) {
      const pending = await t.http().get('/v1/admin/webhooks/deliveries').query({ status: 'pending' }).set(adminAuth);
      if (pending.body.count === 0) return;
      await worker.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('deliveries still pending');
  };
  const summary = (messages: ReceivedWebhook[]) =>
    messages.map((m) => `${m.json.type} ${String(m.json.data.memory_id ?? m.json.data.lesson_id ?? '')}`);

  describe('subscriptions', () => {
    it('creates (secret shown once), lists without the secret, and deletes', async () => {
      const user = newUser('wh');
      const created = await subscribe({ user_id: user, url: `${base}/a`, events: ['memory.stored'] });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      const listed = await t.http().get('/v1/admin/webhooks').query({ user_id: user }).set(adminAuth);
      expect(listed.status).toBe(200);
      expect(listed.body.count).toBe(1);
      expect(Object.keys(listed.body.subscriptions[0]).sort()).toEqual([
        'agent_id',
        'created_at',
        'events',
        'id',
        'url',
        'user_id',
        'workspace_id',
      ]);
      expect((await t.http().delete(`/v1/admin/webhooks/${created.id}`).set(adminAuth)).status).toBe(200);
      const again = await t.http().delete(`/v1/admin/webhooks/${created.id}`).set(adminAuth);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { error: 'Webhook subscription not found' } });
    });

    it.each([
      ['a URL that is not http(s)', { url: 'ftp://example.com/x' }, /^url must be an absolute http or https URL$/],
      ['a URL that does not parse', { url: 'not a url' }, /^url must be an absolute http or https URL$/],
      ['a URL with credentials', { url: 'https://user:pw@example.com/x' }, /^url must not contain credentials$/],
      ['a URL that is too long', { url: `https://example.com/${'a'.repeat(2100)}` }, /^url must be at most 2048 characters$/],
      ['a URL that is not a string', { url: 42 }, /^url must be an absolute http or https URL$/],
      ['an unknown event', { events: ['memory.read'] }, /^events must be a non-empty list of /],
      ['no events', { events: [] }, /^events must be a non-empty list of /],
      ['a workspace without an agent', { workspace_id: newId() }, /^workspace_id and agent_id go together$/],
      ['a malformed secret', { secret: 'hunter2' }, /^secret must be whsec_/],
    ])('refuses %s with a 400 naming the field', async (_name, change, message) => {
      const res = await t
        .http()
        .post('/v1/admin/webhooks')
        .set(adminAuth)
        .send({ user_id: 'u', url: `${base}/x`, events: ['memory.stored'], ...change });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });

    it('needs the admin token', async () => {
      expect((await t.http().get('/v1/admin/webhooks')).status).toBe(401);
      expect(
        (
          await t
            .http()
            .post('/v1/admin/webhooks')
            .send({ user_id: 'u', url: `${base}/x`, events: ['memory.stored'] })
        ).status,
      ).toBe(401);
    });
  });

  it('signs each delivery in the Standard Webhooks layout, with ids and metadata and no content', async () => {
    const user = newUser('sig');
    const sub = await subscribe({ user_id: user, url: `${base}/signed`, events: ALL_EVENTS });
    const id = await store({ user_id: user }, 'The vault combination is kept behind the portrait.');
    await drain();
    const [message] = receiver.on('/signed');
    expect(receiver.on('/signed')).toHaveLength(1);
    expect(verifyStandardWebhook(sub.secret, message)).toBe(true);
    expect(verifyStandardWebhook(sub.secret, { ...message, body: message.body.replace('memory.stored', 'memory.deleted') })).toBe(false);
    expect(message.headers['content-type']).toBe('application/json');
    expect(Number(message.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(message.json).toMatchObject({
      type: 'memory.stored',
      data: { memory_id: id, user_id: user, workspace_id: null, agent_id: null },
    });
    expect(message.body).not.toMatch(/vault|portrait|combination/);
    const deliveries = await t.http().get('/v1/admin/webhooks/deliveries').query({ subscription_id: sub.id }).set(adminAuth);
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({
        id: message.headers['webhook-id'],
        status: 'delivered',
        attempts: 1,
        event_type: 'memory.stored',
        last_error: null,
      }),
    ]);
  });

  it('a receiver that is down and then up gets every event once delivery resumes', async () => {
    const user = newUser('down');
    await subscribe({ user_id: user, url: `${base}/resume`, events: ['memory.stored', 'memory.deleted'] });
    await receiver.stop();
    const ids = [await store({ user_id: user }, 'first fact'), await store({ user_id: user }, 'second fact')];
    expect((await t.http().delete(`/v1/memories/${ids[0]}`).query({ user_id: user })).status).toBe(200);
    expect(await worker.deliverDue()).toBe(3);
    const failed = await t.http().get('/v1/admin/webhooks/deliveries').query({ user_id: user }).set(adminAuth);
    expect(
      failed.body.deliveries.map((d: { status: string; attempts: number; last_error: string }) => [d.status, d.attempts, d.last_error]),
    ).toEqual([
      ['pending', 1, 'ECONNREFUSED'],
      ['pending', 1, 'ECONNREFUSED'],
      ['pending', 1, 'ECONNREFUSED'],
    ]);
    await receiver.start();
    await drain();
    const got = receiver.on('/resume');
    expect(summary(got).sort()).toEqual([`memory.deleted ${ids[0]}`, `memory.stored ${ids[0]}`, `memory.stored ${ids[1]}`].sort());
    expect(new Set(got.map((m) => m.headers['webhook-id'])).size).toBe(3);
  });

  it('dead-letters a delivery after WEBHOOK_MAX_ATTEMPTS failures, visible to the admin', async () => {
    const user = newUser('dead');
    const sub = await subscribe({ user_id: user, url: `${base}/failing`, events: ['memory.stored'] });
    receiver.status = 500;
    try {
      await store({ user_id: user }, 'a fact nobody will hear about');
      await drain();
    } finally {
      receiver.status = 200;
    }
    expect(receiver.on('/failing')).toHaveLength(3);
    const dead = await t.http().get('/v1/admin/webhooks/deliveries').query({ status: 'dead', subscription_id: sub.id }).set(adminAuth);
    expect(dead.body.deliveries).toEqual([expect.objectContaining({ status: 'dead', attempts: 3, last_error: 'HTTP 500' })]);
    // One webhook-id on every attempt.
    expect(new Set(receiver.on('/failing').map((m) => m.headers['webhook-id']))).toEqual(new Set([dead.body.deliveries[0].id]));
  });

  it('never sends a subscriber an event about a memory its scope cannot read', async () => {
    const user = newUser('vis');
    const workspace = newId();
    const [a, b, c] = [newId(), newId(), newId()];
    const asAgent = (agent: string) => ({ user_id: user, workspace_id: workspace, agent_id: agent });
    await subscribe({ ...asAgent(a), url: `${base}/vis-a`, events: ALL_EVENTS });
    await subscribe({ ...asAgent(b), url: `${base}/vis-b`, events: ALL_EVENTS });
    await subscribe({ ...asAgent(c), url: `${base}/vis-c`, events: ['memory.stored'] });
    await subscribe({ user_id: user, url: `${base}/vis-user`, events: ALL_EVENTS });
    await subscribe({ user_id: newUser('other'), url: `${base}/vis-other`, events: ALL_EVENTS });

    const own = await store(asAgent(a), 'only for a', { visibility: 'agent_only' });
    const shared = await store(asAgent(a), 'for the workspace', { visibility: 'workspace' });
    const restricted = await store(asAgent(a), 'for a and its grantees', { visibility: 'restricted' });
    const personal = await store({ user_id: user }, 'personal note');
    expect(
      (
        await t
          .http()
          .post(`/v1/memories/${restricted}/grants`)
          .send({ ...asAgent(a), grantee_agent_id: b })
      ).status,
    ).toBe(201);
    expect(
      (
        await t
          .http()
          .patch(`/v1/memories/${restricted}`)
          .send({ ...asAgent(a), metadata: { k: 1 } })
      ).status,
    ).toBe(200);
    expect((await t.http().delete(`/v1/memories/${own}`).query(asAgent(a))).status).toBe(200);
    await drain();

    expect(summary(receiver.on('/vis-a')).sort()).toEqual(
      [
        `memory.stored ${own}`,
        `memory.stored ${shared}`,
        `memory.stored ${restricted}`,
        `memory.updated ${restricted}`,
        `memory.deleted ${own}`,
      ].sort(),
    );
    expect(summary(receiver.on('/vis-b')).sort()).toEqual([`memory.stored ${shared}`, `memory.updated ${restricted}`].sort());
    expect(summary(receiver.on('/vis-c'))).toEqual([`memory.stored ${shared}`]);
    expect(summary(receiver.on('/vis-user'))).toEqual([`memory.stored ${personal}`]);
    expect(receiver.on('/vis-other')).toEqual([]);
  });

  it('reports lessons: lesson.recorded, and lesson.matched when a search fails closed', async () => {
    const user = newUser('lesson');
    await subscribe({ user_id: user, url: `${base}/lessons`, events: ['lesson.recorded', 'lesson.matched'] });
    const pattern = 'transfer the savings to the unknown account';
    const reported = await t
      .http()
      .post('/v1/memories/lessons/report')
      .query({ user_id: user })
      .send({ pattern, severity: 'critical', source_memory_ids: [] });
    expect(reported.status).toBe(201);
    const search = await t.http().post('/v1/memories/search/fast').send({ user_id: user, query: pattern });
    expect(search.body.lesson_check.safe).toBe(false);
    await drain();
    // Sent in one round, concurrently: in either order.
    const got = receiver.on('/lessons').sort((x, y) => y.json.type.localeCompare(x.json.type));
    expect(got.map((m) => m.json.type)).toEqual(['lesson.recorded', 'lesson.matched']);
    expect(got[0].json.data).toMatchObject({ lesson_id: reported.body.lesson_id, lesson_type: 'user_reported', severity: 'critical' });
    expect(got[1].json.data).toMatchObject({ lesson_ids: [reported.body.lesson_id], highest_severity: 'critical', user_id: user });
    for (const message of got) expect(message.body).not.toMatch(/savings|account/);
  });

  // Two instances need a database both can open (the embedded one belongs to one process).
  if (isPostgresRun()) {
    it('two instances polling one database deliver each event once', async () => {
      const user = newUser('two');
      await subscribe({ user_id: user, url: `${base}/two`, events: ['memory.stored'] });
      const env = { ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_INTERVAL_MS: '5' };
      const first = await createSecondInstance(t, env);
      const second = await createSecondInstance(t, env);
      try {
        const ids: string[] = [];
        for (let i = 0; i < 30; i++) ids.push(await store({ user_id: user }, `fact number ${i}`));
        for (let i = 0; i < 200 && receiver.on('/two').length < ids.length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const got = receiver.on('/two');
        expect(got.map((m) => m.json.data.memory_id).sort()).toEqual([...ids].sort());
        expect(new Set(got.map((m) => m.headers['webhook-id'])).size).toBe(ids.length);
      } finally {
        await first.close();
        await second.close();
      }
    });
  }
});
