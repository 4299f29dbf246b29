import { ADMIN_TOKEN, adminAuth, agentKey, API_KEY_ENV, bearer, serviceKey, userKey } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/** GET /v1/whoami: what a credential is, as the guard resolved it (the inspector's "signed in as"). */
describe('GET /v1/whoami', () => {
  describe('AUTH_MODE=api_key', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(API_KEY_ENV);
    });
    afterAll(async () => {
      await t.close();
    });

    it('names an agent key and the ids it is bound to', async () => {
      const user = newUser();
      const ws = newId();
      const agent = newId();
      const key = await agentKey(t, user, ws, agent);
      const res = await t.http().get('/v1/whoami').set(bearer(key.key));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ auth_mode: 'api_key', kind: 'agent', key_id: key.id, user_id: user, workspace_id: ws, agent_id: agent });
    });

    it('names a user key and a service key', async () => {
      const user = newUser();
      const uk = await userKey(t, user);
      const sk = await serviceKey(t);
      const asUser = await t.http().get('/v1/whoami').set('X-API-Key', uk.key);
      expect(asUser.body).toEqual({ auth_mode: 'api_key', kind: 'user', key_id: uk.id, user_id: user, workspace_id: null, agent_id: null });
      const asService = await t.http().get('/v1/whoami').set(bearer(sk.key));
      expect(asService.body).toEqual({
        auth_mode: 'api_key',
        kind: 'service',
        key_id: sk.id,
        user_id: null,
        workspace_id: null,
        agent_id: null,
      });
    });

    it('refuses no key, an unknown key, a revoked key and the admin token (not a key) with 401', async () => {
      const key = await userKey(t, newUser());
      expect((await t.http().delete(`/v1/admin/keys/${key.id}`).set(adminAuth)).status).toBe(200);
      for (const headers of [{}, bearer('atr_not-a-real-key-000000000000000000000000'), bearer(key.key), bearer(ADMIN_TOKEN)]) {
        const res = await t.http().get('/v1/whoami').set(headers);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'invalid or missing API key' });
      }
    });
  });

  describe('AUTH_MODE=off', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('answers open, whatever the request says', async () => {
      const res = await t.http().get('/v1/whoami').query({ user_id: 'alice' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ auth_mode: 'off', kind: 'open', key_id: null, user_id: null, workspace_id: null, agent_id: null });
    });
  });
});
