import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

import { ADMIN_TOKEN, adminAuth, agentKey, API_KEY_ENV, bearer, createKey, serviceKey, userKey } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { mcpIdentity, toolCall } from '../support/mcp-wire';
import { apiRoutes } from '../support/registered-routes';
import { createTestApp, type TestApp } from '../support/test-app';

const UNAUTHENTICATED = { error: 'invalid or missing API key' };
const MISMATCH = { error: 'scope does not match the API key' };

/** A GET with raw header lines, over a plain socket (supertest and http.request merge repeated headers). */
async function rawGet(t: TestApp, path: string, headers: [string, string][]): Promise<{ status: number; body: unknown }> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const head = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)].join(
    '\r\n',
  );
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return {
    status,
    body: JSON.parse(body.trim().startsWith('{') ? body : body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '')) as unknown,
  };
}

describe('AUTH_MODE=api_key', () => {
  let t: TestApp;
  const alice = newUser('alice');
  const bob = newUser('bob');
  const ws = newId();
  const agentA = newId();
  const agentB = newId();
  let keyA: string;
  let keyB: string;
  let keyAlice: string;
  let memoryOfA: string;

  beforeAll(async () => {
    t = await createTestApp(API_KEY_ENV);
    keyA = (await agentKey(t, alice, ws, agentA)).key;
    keyB = (await agentKey(t, alice, ws, agentB)).key;
    keyAlice = (await userKey(t, alice)).key;
    const res = await t.http().post('/v1/memories/ingest/quick').set(bearer(keyA)).send({
      source_site: 'tests',
      skip_extraction: true,
      conversation: 'The offsite venue contract is with Casa do Rio',
      visibility: 'restricted',
    });
    expect(res.status).toBe(200);
    memoryOfA = res.body.stored_memory_ids[0];
  });
  afterAll(async () => {
    await t.close();
  });

  describe('authentication', () => {
    it('answers 401 without a key, before any other check (even for invalid input or an unknown memory)', async () => {
      for (const res of [
        await t.http().post('/v1/memories/search').send({}),
        await t.http().get(`/v1/memories/${newId()}`).query({ user_id: alice }),
        await t.http().get('/v1/memories/not-a-uuid'),
        await t.http().get('/v1/memories/lessons'),
        await t.http().put('/v1/agents/trust').send({ trust_level: 9 }),
        await t.http().get('/v1/memories/health'),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHENTICATED });
      }
    });

    it.each([
      ['an unknown key', { Authorization: `Bearer atr_${'A'.repeat(43)}` }],
      ['a key that is not atr_ shaped', { Authorization: 'Bearer hello' }],
      ['another scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['Bearer without a token', { Authorization: 'Bearer' }],
      ['the admin token on a key route', { Authorization: `Bearer ${ADMIN_TOKEN}` }],
      ['an empty X-API-Key', { 'X-API-Key': '' }],
    ])('answers 401 for %s', async (_name, headers) => {
      const res = await t.http().get('/v1/memories/list').set(headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    it('answers 401 for a second Authorization header, even when both carry the valid key', async () => {
      // Node's HTTP parser keeps only the first Authorization header; the guard counts the raw ones.
      const res = await rawGet(t, '/v1/memories/list', [
        ['Authorization', `Bearer ${keyA}`],
        ['Authorization', `Bearer ${keyA}`],
      ]);
      expect(res).toEqual({ status: 401, body: UNAUTHENTICATED });
      const single = await rawGet(t, '/v1/memories/list', [['Authorization', `Bearer ${keyA}`]]);
      expect(single.status).toBe(200);
    });

    it('answers 401 when Authorization and X-API-Key carry different keys', async () => {
      const res = await t.http().get('/v1/memories/list').set(bearer(keyA)).set('X-API-Key', keyB);
      expect(res.status).toBe(401);
    });

    it('accepts the key in X-API-Key as well', async () => {
      const res = await t.http().get(`/v1/memories/${memoryOfA}`).set('X-API-Key', keyA);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: memoryOfA, user_id: alice, workspace_id: ws, agent_id: agentA });
    });

    it('stops accepting a key on the very next request after its revocation', async () => {
      const k = await agentKey(t, alice, ws, agentA);
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(200);
      expect((await t.http().delete(`/v1/admin/keys/${k.id}`).set(adminAuth)).body).toEqual({ success: true });
      const res = await t.http().get('/v1/memories/list').set(bearer(k.key));
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    it('stops accepting a key once it has expired', async () => {
      const k = await createKey(t, {
        role: 'agent',
        user_id: alice,
        workspace_id: ws,
        agent_id: agentA,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(200);
      await t.dataSource.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [k.id]);
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(401);
    });

    it('keeps GET /health open and lets CORS preflights name Authorization and X-API-Key', async () => {
      expect((await t.http().get('/health')).status).toBe(200);
      const pre = await t
        .http()
        .options('/v1/memories/search')
        .set('Origin', 'http://localhost:3050')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,x-api-key,content-type');
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
      expect(pre.headers['access-control-allow-headers']).toMatch(/X-API-Key/);
    });
  });

  describe('scope comes from the key', () => {
    it('fills in every scope parameter an agent key leaves out', async () => {
      const res = await t.http().post('/v1/memories/search/fast').set(bearer(keyA)).send({ query: 'offsite venue contract' });
      expect(res.status).toBe(200);
      expect(res.body.scope).toEqual({ kind: 'workspace', user_id: alice, workspace_id: ws, agent_id: agentA, agent_scope: 'all' });
      expect(res.body.memories.map((m: { id: string }) => m.id)).toEqual([memoryOfA]);
    });

    it('accepts given parameters that equal the key (UUIDs in any case)', async () => {
      const res = await t
        .http()
        .get('/v1/memories/list')
        .set(bearer(keyA))
        .query({ user_id: alice, workspace_id: ws.toUpperCase(), agent_id: agentA });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(1);
    });

    it("keeps agent A's restricted memory from agent B, which holds its own key", async () => {
      const res = await t.http().post('/v1/memories/search').set(bearer(keyB)).send({ query: 'offsite venue contract' });
      expect(res.status).toBe(200);
      expect(res.body.memories).toEqual([]);
      expect((await t.http().get(`/v1/memories/${memoryOfA}`).set(bearer(keyB))).status).toBe(404);
    });

    it('gives a user key its user scope and refuses a workspace with 403', async () => {
      const ingest = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .set(bearer(keyAlice))
        .send({ source_site: 'tests', skip_extraction: true, conversation: 'Alice prefers tea' });
      expect(ingest.status).toBe(200);
      const list = await t.http().get('/v1/memories/list').set(bearer(keyAlice));
      expect(list.body.memories.map((m: { content: string; workspace_id: string | null }) => [m.content, m.workspace_id])).toEqual([
        ['Alice prefers tea', null],
      ]);
      const ws403 = await t.http().get('/v1/memories/list').set(bearer(keyAlice)).query({ workspace_id: ws, agent_id: agentA });
      expect({ status: ws403.status, body: ws403.body }).toEqual({ status: 403, body: MISMATCH });
      const other = await t.http().get('/v1/memories/list').set(bearer(keyAlice)).query({ user_id: bob });
      expect({ status: other.status, body: other.body }).toEqual({ status: 403, body: MISMATCH });
    });

    it('lets a service key assert any scope, as AUTH_MODE=off does', async () => {
      const k = await serviceKey(t);
      const res = await t
        .http()
        .get(`/v1/memories/${memoryOfA}`)
        .set(bearer(k.key))
        .query({ user_id: alice, workspace_id: ws, agent_id: agentA });
      expect(res.status).toBe(200);
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).body).toEqual({ error: 'user_id (string) is required' });
    });
  });

  describe("agent B's key claiming agent A's scope is refused on every route", () => {
    const asA = () => ({ user_id: alice, workspace_id: ws, agent_id: agentA });
    const routes: [string, () => Promise<{ status: number; body: unknown }>][] = [
      [
        'POST /mcp',
        () =>
          t
            .http()
            .post('/mcp')
            .set(bearer(keyB))
            .set(mcpIdentity(asA()))
            .send(toolCall('recall', { query: 'venue' })),
      ],
      [
        'POST /v1/memories/ingest',
        () =>
          t
            .http()
            .post('/v1/memories/ingest')
            .set(bearer(keyB))
            .send({ ...asA(), source_site: 's', conversation: 'x' }),
      ],
      [
        'POST /v1/memories/ingest/quick',
        () =>
          t
            .http()
            .post('/v1/memories/ingest/quick')
            .set(bearer(keyB))
            .send({ ...asA(), source_site: 's', conversation: 'x' }),
      ],
      [
        'POST /v1/memories/search',
        () =>
          t
            .http()
            .post('/v1/memories/search')
            .set(bearer(keyB))
            .send({ ...asA(), query: 'note' }),
      ],
      [
        'POST /v1/memories/search/fast',
        () =>
          t
            .http()
            .post('/v1/memories/search/fast')
            .set(bearer(keyB))
            .send({ ...asA(), query: 'note' }),
      ],
      [
        'POST /v1/memories/expand',
        () =>
          t
            .http()
            .post('/v1/memories/expand')
            .set(bearer(keyB))
            .send({ ...asA(), memory_ids: [memoryOfA] }),
      ],
      ['GET /v1/memories/list', () => t.http().get('/v1/memories/list').set(bearer(keyB)).query(asA())],
      ['GET /v1/memories/export', () => t.http().get('/v1/memories/export').set(bearer(keyB)).query(asA())],
      [
        'POST /v1/memories/import',
        () =>
          t
            .http()
            .post('/v1/memories/import')
            .set(bearer(keyB))
            .set('Content-Type', 'application/x-ndjson')
            .query(asA())
            .send(`${JSON.stringify({ id: randomUUID(), content: 'planted by B' })}\n`),
      ],
      ['GET /v1/memories/:id', () => t.http().get(`/v1/memories/${memoryOfA}`).set(bearer(keyB)).query(asA())],
      ['DELETE /v1/memories/:id', () => t.http().delete(`/v1/memories/${memoryOfA}`).set(bearer(keyB)).query(asA())],
      ['GET /v1/memories/:id/history', () => t.http().get(`/v1/memories/${memoryOfA}/history`).set(bearer(keyB)).query(asA())],
      [
        'PATCH /v1/memories/:id',
        () =>
          t
            .http()
            .patch(`/v1/memories/${memoryOfA}`)
            .set(bearer(keyB))
            .send({ ...asA(), visibility: 'workspace' }),
      ],
      [
        'POST /v1/memories/:id/grants',
        () =>
          t
            .http()
            .post(`/v1/memories/${memoryOfA}/grants`)
            .set(bearer(keyB))
            .send({ ...asA(), grantee_agent_id: agentB }),
      ],
      ['GET /v1/memories/:id/grants', () => t.http().get(`/v1/memories/${memoryOfA}/grants`).set(bearer(keyB)).query(asA())],
      [
        'DELETE /v1/memories/:id/grants/:grantee',
        () => t.http().delete(`/v1/memories/${memoryOfA}/grants/${agentB}`).set(bearer(keyB)).query(asA()),
      ],
      // agent A belongs to alice; B's claims below are for agent A's user through another tenant's key, or A's agent id
      ['GET /v1/agents/trust', () => t.http().get('/v1/agents/trust').set(bearer(keyB)).query({ user_id: alice, agent_id: agentA })],
      [
        'PUT /v1/agents/trust',
        () => t.http().put('/v1/agents/trust').set(bearer(keyB)).send({ user_id: alice, agent_id: agentA, trust_level: 1 }),
      ],
      [
        'DELETE /v1/memories/lessons/:id',
        () => t.http().delete(`/v1/memories/lessons/${newId()}`).set(bearer(keyB)).query({ user_id: alice }),
      ],
    ];
    it('covers every registered route that takes a key, here or in a named case', () => {
      // The routes array's labels, with their registered paths; lessons' reads and reports are the it.each below.
      const labelled = new Set(
        routes
          .map(([route]) => route.replace(':grantee', ':grantee_agent_id'))
          .concat('GET /v1/memories/lessons', 'GET /v1/memories/lessons/stats', 'POST /v1/memories/lessons/report'),
      );
      const WITHOUT_A_SCOPE: Record<string, string> = {
        'GET /health': 'open',
        'GET /v1/memories/health': 'open',
        'GET /metrics': 'the admin token (admin routes and admin-only routes, below)',
        'PUT /v1/memories/config': 'the admin token (admin routes and admin-only routes, below)',
        'POST /v1/admin/keys': 'the admin token',
        'GET /v1/admin/keys': 'the admin token',
        'DELETE /v1/admin/keys/:id': 'the admin token',
        'GET /v1/admin/audit': 'the admin token',
        'POST /v1/admin/erase': 'the admin token (test/data/erasure.e2e.spec.ts)',
        'GET /v1/admin/explain': 'the admin token (test/inspector/explain.e2e.spec.ts)',
        'POST /v1/admin/webhooks': 'the admin token (test/observability/webhooks.e2e.spec.ts)',
        'GET /v1/admin/webhooks': 'the admin token',
        'DELETE /v1/admin/webhooks/:id': 'the admin token',
        'GET /v1/admin/webhooks/deliveries': 'the admin token',
        'GET /v1/whoami': 'names the key itself, takes no scope (test/auth/whoami.e2e.spec.ts)',
        'GET /mcp': '405 after the key check: the MCP server is stateless (test/mcp/keys.e2e.spec.ts)',
        'DELETE /mcp': '405 after the key check: the MCP server is stateless (test/mcp/keys.e2e.spec.ts)',
      };
      expect(apiRoutes(t.app).filter((route) => !labelled.has(route) && !(route in WITHOUT_A_SCOPE))).toEqual([]);
    });

    it.each(routes)('%s', async (_route, call) => {
      const before = Number((await t.dataSource.query('SELECT count(*) AS n FROM audit_events'))[0].n);
      const res = await call();
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: MISMATCH });
      expect(Number((await t.dataSource.query('SELECT count(*) AS n FROM audit_events'))[0].n)).toBe(before);
    });

    it.each([
      ['GET /v1/memories/lessons', (key: string) => t.http().get('/v1/memories/lessons').set(bearer(key)).query({ user_id: alice })],
      [
        'GET /v1/memories/lessons/stats',
        (key: string) => t.http().get('/v1/memories/lessons/stats').set(bearer(key)).query({ user_id: alice }),
      ],
      [
        'POST /v1/memories/lessons/report',
        (key: string) => t.http().post('/v1/memories/lessons/report').set(bearer(key)).query({ user_id: alice }).send({ pattern: 'p' }),
      ],
      [
        'POST /v1/memories/lessons/report (body user_id)',
        (key: string) => t.http().post('/v1/memories/lessons/report').set(bearer(key)).send({ user_id: alice, pattern: 'p' }),
      ],
    ])("%s: an agent of another user claiming alice's lessons", async (_route, call) => {
      const stranger = await agentKey(t, bob, newId(), newId());
      const res = await call(stranger.key);
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: MISMATCH });
    });
  });

  describe('lessons and agents routes', () => {
    it("takes the key's user when user_id is left out, and lets an agent report but not retire", async () => {
      const reported = await t
        .http()
        .post('/v1/memories/lessons/report')
        .set(bearer(keyB))
        .send({ pattern: 'wire money to a new account', severity: 'low' });
      expect(reported.status).toBe(201);
      const listed = await t.http().get('/v1/memories/lessons').set(bearer(keyAlice));
      expect(listed.body.lessons.map((l: { id: string; user_id: string }) => [l.id, l.user_id])).toEqual([
        [reported.body.lesson_id, alice],
      ]);
      const agentRetire = await t.http().delete(`/v1/memories/lessons/${reported.body.lesson_id}`).set(bearer(keyB));
      expect({ status: agentRetire.status, body: agentRetire.body }).toEqual({ status: 403, body: MISMATCH });
      const userRetire = await t.http().delete(`/v1/memories/lessons/${reported.body.lesson_id}`).set(bearer(keyAlice));
      expect(userRetire.body).toEqual({ success: true });
    });

    it('lets a user key set its agents trust, and an agent key read only its own', async () => {
      const put = await t.http().put('/v1/agents/trust').set(bearer(keyAlice)).send({ agent_id: agentA, trust_level: 0.9 });
      expect(put.body).toEqual({ agent_id: agentA, trust_level: 0.9, display_name: null });
      const own = await t.http().get('/v1/agents/trust').set(bearer(keyA)).query({ agent_id: agentA });
      expect(own.body).toEqual({ agent_id: agentA, trust_level: 0.9 });
      const self = await t.http().put('/v1/agents/trust').set(bearer(keyA)).send({ agent_id: agentA, trust_level: 1 });
      expect(self.status).toBe(403);
    });
  });

  describe('rate limits', () => {
    it("answers 429 with Retry-After past the key's limit, without touching other keys", async () => {
      const k = await agentKey(t, alice, ws, agentA, { rate_limit_per_minute: 2 });
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(200);
      expect((await t.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(200);
      const limited = await t.http().get('/v1/memories/list').set(bearer(k.key));
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(/rate limit of 2 requests per minute/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await t.http().get('/v1/memories/list').set(bearer(keyA))).status).toBe(200);
    });
  });

  describe('admin routes and admin-only routes', () => {
    it('creates a key shown once, lists it without the secret, and stores only its hash', async () => {
      const res = await t
        .http()
        .post('/v1/admin/keys')
        .set(adminAuth)
        .send({ role: 'agent', user_id: alice, workspace_id: ws, agent_id: agentB, label: 'B' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'agent_id',
          'created_at',
          'expires_at',
          'id',
          'key',
          'label',
          'rate_limit_per_minute',
          'revoked_at',
          'role',
          'user_id',
          'workspace_id',
        ].sort(),
      );
      const listed = await t.http().get('/v1/admin/keys').set(adminAuth).query({ user_id: alice });
      const mine = listed.body.keys.find((k: { id: string }) => k.id === res.body.id);
      expect(mine).toMatchObject({ role: 'agent', label: 'B', revoked_at: null });
      expect(mine.key).toBeUndefined();
      expect(JSON.stringify(listed.body)).not.toContain(res.body.key);
      const stored = await t.dataSource.query('SELECT key_hash, key_prefix FROM api_keys WHERE id = $1', [res.body.id]);
      expect(JSON.stringify(stored)).not.toContain(res.body.key.slice(4));
    });

    it.each([
      [{ role: 'agent', user_id: 'x' }, 'workspace_id and agent_id are required for an agent key'],
      [{ role: 'agent', user_id: 'x', workspace_id: 'w', agent_id: newId() }, 'workspace_id must be a valid UUID'],
      [{ role: 'user', user_id: '*' }, 'user_id "*" is only allowed for a service key'],
      [{ role: 'agent', user_id: '*', workspace_id: newId(), agent_id: newId() }, 'user_id "*" is only allowed for a service key'],
      [{ role: 'service', user_id: 'x' }, 'user_id must be "*" for a service key'],
      [{ role: 'root', user_id: 'x' }, 'role must be one of agent, user, service'],
      [{ role: 'user', user_id: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at must be in the future'],
      [{ role: 'user', user_id: 'x', expires_at: 'tomorrow' }, 'expires_at must be an ISO-8601 timestamp'],
      [{ role: 'user', user_id: 'x', expires_at: 5 }, 'expires_at must be an ISO-8601 timestamp'],
      [{ role: 'user', user_id: 'x', rate_limit_per_minute: 0 }, 'rate_limit_per_minute must be an integer between 1 and 100000'],
      [{ role: 'user', user_id: 'x', workspace_id: newId() }, 'workspace_id and agent_id are only allowed for an agent key'],
    ])('refuses to create %j: 400 %s', async (body, message) => {
      const before = Number((await t.dataSource.query('SELECT count(*) AS n FROM api_keys'))[0].n);
      const res = await t.http().post('/v1/admin/keys').set(adminAuth).send(body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: message } });
      expect(Number((await t.dataSource.query('SELECT count(*) AS n FROM api_keys'))[0].n)).toBe(before);
    });

    it('answers 401 on admin routes for a missing or wrong token, an API key, or the token in X-API-Key', async () => {
      for (const headers of [
        {},
        { Authorization: 'Bearer wrong-token-wrong-token-wrong-token' },
        bearer(keyA),
        { 'X-API-Key': ADMIN_TOKEN },
      ]) {
        const res = await t.http().get('/v1/admin/keys').set(headers);
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'invalid or missing admin token' } });
      }
    });

    it('answers 404 for an unknown key id, 400 for a malformed one', async () => {
      expect((await t.http().delete(`/v1/admin/keys/${newId()}`).set(adminAuth)).status).toBe(404);
      expect((await t.http().delete('/v1/admin/keys/abc').set(adminAuth)).body).toEqual({ error: 'id must be a valid UUID' });
    });

    it('puts PUT /v1/memories/config and GET /metrics behind the admin token', async () => {
      expect((await t.http().put('/v1/memories/config').set(bearer(keyA)).send({ lessons_enabled: true })).status).toBe(401);
      expect((await t.http().put('/v1/memories/config').set(adminAuth).send({ lessons_enabled: true })).status).toBe(410);
      expect((await t.http().get('/metrics').set(bearer(keyA))).status).toBe(401);
      expect((await t.http().get('/metrics').set(adminAuth)).status).toBe(200);
    });

    it('queries the audit log by user, action and time, newest first, with the acting key and request id', async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .set(bearer(keyA))
        .set('X-Request-Id', 'audit-query-test')
        .send({ source_site: 'tests', skip_extraction: true, conversation: 'Audited note' });
      const id = res.body.stored_memory_ids[0];
      const keyAId = (
        await t.dataSource.query('SELECT id FROM api_keys WHERE user_id = $1 AND agent_id = $2 ORDER BY created_at LIMIT 1', [
          alice,
          agentA,
        ])
      )[0].id;
      const audit = await t
        .http()
        .get('/v1/admin/audit')
        .set(adminAuth)
        .query({ user_id: alice, action: 'memory.stored', since, limit: 5 });
      expect(audit.status).toBe(200);
      expect(audit.body.events[0]).toMatchObject({
        action: 'memory.stored',
        user_id: alice,
        workspace_id: ws,
        agent_id: agentA,
        key_id: keyAId,
        target_id: id,
        request_id: 'audit-query-test',
      });
      expect(JSON.stringify(audit.body)).not.toContain('Audited note');
      for (const [query, message] of [
        [{ limit: 501 }, 'limit must be between 1 and 500'],
        [{ since: 'yesterday' }, 'since must be an ISO-8601 timestamp'],
        [{ workspace_id: 'w' }, 'workspace_id must be a valid UUID'],
      ] as const) {
        expect((await t.http().get('/v1/admin/audit').set(adminAuth).query(query)).body).toEqual({ error: message });
      }
    });
  });
});

describe('AUTH_MODE=off without ATRIUM_ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_MODE: 'off', ATRIUM_ADMIN_TOKEN: '' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no admin routes (404) and takes the scope from the parameters', async () => {
    const res = await t.http().get('/v1/admin/keys').set(adminAuth);
    expect(res.status).toBe(404);
    expect((await t.http().post('/v1/admin/keys').send({ role: 'service', user_id: '*' })).status).toBe(404);
    expect((await t.http().get('/v1/memories/list').query({ user_id: newUser() })).body).toEqual({ memories: [], count: 0 });
    expect((await t.http().get('/metrics')).status).toBe(200);
  });
});
