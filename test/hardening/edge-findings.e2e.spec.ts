import { connect, type AddressInfo } from 'node:net';

import { agentKey, API_KEY_ENV, bearer } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/** The smaller items of issue 20, finding 11, each held down through HTTP. */
describe('edge cases of issue 20 (finding 11)', () => {
  describe('without keys', () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
      port = (t.app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(async () => {
      await t.close();
    });

    const workspaceCaller = () => ({ user_id: newUser(), workspace_id: newId(), agent_id: newId() });
    const repeated = (name: string, values: string[]) => values.map((v) => `${name}=${v}`).join('&');

    it('takes up to 100 repeated agent_scope values on GET, and names the limit past it', async () => {
      const caller = workspaceCaller();
      const base = `user_id=${caller.user_id}&workspace_id=${caller.workspace_id}&agent_id=${caller.agent_id}`;
      for (const n of [21, 100]) {
        const ids = Array.from({ length: n }, () => newId());
        const res = await t.http().get(`/v1/memories/list?${base}&${repeated('agent_scope', ids)}`);
        expect({ n, status: res.status }).toEqual({ n, status: 200 });
      }
      const tooMany = await t.http().get(
        `/v1/memories/list?${base}&${repeated(
          'agent_scope',
          Array.from({ length: 101 }, () => newId()),
        )}`,
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual({ error: 'agent_scope may list at most 100 agent ids' });
    });

    it('answers HEAD on the memory GET routes like GET, without a body', async () => {
      const caller = workspaceCaller();
      const stored = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...caller, source_site: 'head', skip_extraction: true, conversation: 'I water the plants on Sundays.' });
      const id = stored.body.stored_memory_ids[0];
      for (const path of ['/v1/memories/list', `/v1/memories/${id}`, `/v1/memories/${id}/history`, '/v1/memories/lessons']) {
        const get = await t.http().get(path).query(caller);
        const head = await t.http().head(path).query(caller);
        expect({ path, status: head.status }).toEqual({ path, status: get.status });
        expect(head.text ?? '').toBe('');
      }
      const missing = await t.http().head(`/v1/memories/${newId()}`).query(caller);
      expect(missing.status).toBe(404);
    });

    it("answers Node's 431 (headers too large) with the error envelope", async () => {
      const response = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('error', () => undefined);
        socket.once('close', () => resolve(data));
        socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      expect(response).toMatch(/^HTTP\/1\.1 431 /);
      expect(response).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Request headers are too large' });
    });
  });

  describe('with keys', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ ...API_KEY_ENV, AUTH_FAILURES_PER_MINUTE: '5' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('refuses an agent key asking for user scope (user_id without workspace_id) with 403, not a silent re-scope', async () => {
      const user = newUser();
      const ws = newId();
      const agent = await agentKey(t, user, ws, newId());
      const asAgent = (req: ReturnType<ReturnType<TestApp['http']>['get']>) => req.set(bearer(agent.key));
      const list = await asAgent(t.http().get('/v1/memories/list').query({ user_id: user }));
      expect(list.status).toBe(403);
      expect(list.body).toEqual({ error: 'scope does not match the API key' });
      const write = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .set(bearer(agent.key))
        .send({ user_id: user, source_site: 'x', skip_extraction: true, conversation: 'Meant for my personal memory.' });
      expect(write.status).toBe(403);
      // Leaving the ids out, or naming the key's workspace, is the key's own scope.
      expect((await asAgent(t.http().get('/v1/memories/list'))).status).toBe(200);
      expect((await asAgent(t.http().get('/v1/memories/list').query({ user_id: user, workspace_id: ws }))).status).toBe(200);
    });

    it('rate limits failed key lookups per client address (AUTH_FAILURES_PER_MINUTE)', async () => {
      const user = newUser();
      const good = await agentKey(t, user, newId(), newId());
      // Earlier requests of this file may have spent a failure or two: spend the rest.
      let status = 401;
      let failures = 0;
      while (status === 401 && failures < 10) {
        const res = await t
          .http()
          .get('/v1/memories/list')
          .set(bearer(`atr_${'x'.repeat(43)}`));
        status = res.status;
        if (status === 401) failures++;
      }
      expect(failures).toBeLessThanOrEqual(5);
      expect(status).toBe(429);
      const refused = await t.http().get('/v1/memories/list').set(bearer(good.key));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'too many failed API key lookups from this address' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
  });
});
