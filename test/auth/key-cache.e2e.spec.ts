import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator';
import { adminAuth, agentKey, API_KEY_ENV, bearer, createKey, userKey } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { createSecondInstance, createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

const UNAUTHENTICATED = { status: 401, body: { error: 'invalid or missing API key' } };

/**
 * search/fast takes the key from the instance's memory and re-checks it in its one SQL
 * statement (ApiKeyAuthenticator.authenticateForStatement, search-statement.ts `live_key`).
 * A revocation made anywhere (here: an UPDATE in the database, as another instance's
 * DELETE /v1/admin/keys/:id does) must apply to the very next search, with nothing returned.
 */
describe('API keys taken from memory on search/fast and search', () => {
  let t: TestApp;
  const alice = newUser('alice');
  const ws = newId();
  const agent = newId();

  const searchFast = (app: TestApp, key: string) =>
    app.http().post('/v1/memories/search/fast').set(bearer(key)).send({ query: 'harbour crane schedule' });
  const revokeInDatabase = (app: TestApp, keyId: string) =>
    app.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);

  beforeAll(async () => {
    // An exact scope limit of 1: a scope of two memories is "large", so the HNSW statement runs too.
    t = await createTestApp({ ...API_KEY_ENV, SEARCH_EXACT_SCOPE_LIMIT: '1' });
    const writer = await agentKey(t, alice, ws, agent);
    for (const text of ['The harbour crane schedule moved to Tuesdays', 'Crane inspections happen at the harbour in spring']) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .set(bearer(writer.key))
        .send({ source_site: 'tests', skip_extraction: true, conversation: text });
      expect(res.status).toBe(200);
    }
    const personal = await userKey(t, alice);
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .set(bearer(personal.key))
      .send({ source_site: 'tests', skip_extraction: true, conversation: 'My own harbour crane notes' });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers from memory after the first use, with the same results as a fresh lookup', async () => {
    const authenticator = t.app.get(ApiKeyAuthenticator);
    const k = await agentKey(t, alice, ws, agent);
    const before = authenticator.cachedKeys();
    const first = await searchFast(t, k.key);
    expect(first.status).toBe(200);
    expect(authenticator.cachedKeys()).toBe(before + 1);
    const second = await searchFast(t, k.key);
    expect(second.body.citations).toEqual(first.body.citations);
    expect(second.body.count).toBe(2);
  });

  it('refuses a key revoked in the database on the very next search (exact plan, then the HNSW plan of a known large scope)', async () => {
    const authenticator = t.app.get(ApiKeyAuthenticator);
    for (const warmups of [1, 3]) {
      const k = await agentKey(t, alice, ws, agent);
      // One search: the exact statement runs first. Three: the scope is known to be large,
      // and the HNSW statement is the first (and the checking) one.
      for (let i = 0; i < warmups; i++) expect((await searchFast(t, k.key)).status).toBe(200);
      const cached = authenticator.cachedKeys();
      await revokeInDatabase(t, k.id);
      const res = await searchFast(t, k.key);
      expect({ status: res.status, body: res.body }).toEqual(UNAUTHENTICATED);
      // The statement told the instance: it forgot the key, and the next request reads the row.
      expect(authenticator.cachedKeys()).toBe(cached - 1);
      expect((await searchFast(t, k.key)).status).toBe(401);
    }
  });

  it('refuses a revoked user key in user scope as well', async () => {
    const k = await userKey(t, alice);
    expect((await searchFast(t, k.key)).body.count).toBe(1);
    await revokeInDatabase(t, k.id);
    expect((await searchFast(t, k.key)).status).toBe(401);
  });

  it('does the same on /search (hybrid): its vector statement re-checks the key', async () => {
    const search = (key: string) => t.http().post('/v1/memories/search').set(bearer(key)).send({ query: 'harbour crane schedule' });
    for (const warmups of [1, 3]) {
      const k = await agentKey(t, alice, ws, agent);
      for (let i = 0; i < warmups; i++) {
        const res = await search(k.key);
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(2);
      }
      await revokeInDatabase(t, k.id);
      const res = await search(k.key);
      expect({ status: res.status, body: res.body }).toEqual(UNAUTHENTICATED);
    }
  });

  it('refuses a key revoked through the admin route at once, and keeps other keys', async () => {
    const k = await agentKey(t, alice, ws, agent);
    const other = await agentKey(t, alice, ws, agent);
    expect((await searchFast(t, k.key)).status).toBe(200);
    expect((await searchFast(t, other.key)).status).toBe(200);
    expect((await t.http().delete(`/v1/admin/keys/${k.id}`).set(adminAuth)).status).toBe(200);
    expect((await searchFast(t, k.key)).status).toBe(401);
    expect((await searchFast(t, other.key)).status).toBe(200);
  });

  it('refuses a cached key once its expiry passes, and one whose expiry was moved earlier in the database', async () => {
    const soon = await createKey(t, {
      role: 'agent',
      user_id: alice,
      workspace_id: ws,
      agent_id: agent,
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await searchFast(t, soon.key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await searchFast(t, soon.key)).status).toBe(401);

    const later = await createKey(t, {
      role: 'agent',
      user_id: alice,
      workspace_id: ws,
      agent_id: agent,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await searchFast(t, later.key)).status).toBe(200);
    await t.dataSource.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [later.id]);
    expect((await searchFast(t, later.key)).status).toBe(401);
  });

  it('never accepts a wrong secret behind a cached prefix', async () => {
    const k = await agentKey(t, alice, ws, agent);
    expect((await searchFast(t, k.key)).status).toBe(200);
    const last = k.key.at(-1) === 'A' ? 'B' : 'A';
    const forged = k.key.slice(0, -1) + last;
    expect((await searchFast(t, forged)).status).toBe(401);
    expect((await searchFast(t, k.key)).status).toBe(200);
  });

  // Two instances need a database both can open: the embedded one belongs to one process (the
  // revocation "from elsewhere" above is the same UPDATE another instance would make).
  if (isPostgresRun()) {
    it('refuses on one instance a key revoked through the other', async () => {
      const other = await createSecondInstance(t, { ...API_KEY_ENV, SEARCH_EXACT_SCOPE_LIMIT: '1' });
      try {
        const k = await agentKey(t, alice, ws, agent);
        expect((await searchFast(other, k.key)).status).toBe(200);
        expect((await searchFast(other, k.key)).status).toBe(200);
        expect((await t.http().delete(`/v1/admin/keys/${k.id}`).set(adminAuth)).status).toBe(200);
        const res = await searchFast(other, k.key);
        expect({ status: res.status, body: res.body }).toEqual(UNAUTHENTICATED);
        expect((await other.http().get('/v1/memories/list').set(bearer(k.key))).status).toBe(401);
      } finally {
        await other.close();
      }
    });
  }
});
