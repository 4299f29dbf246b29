import { startListeningApp, type ListeningApp } from '../client/listening-app';
import { adminAuth, agentKey, API_KEY_ENV, bearer, userKey, type CreatedKey } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { mcpIdentity, toolCall, toolResultOf } from '../support/mcp-wire';
import { call, connectMcp, structured, textOf } from './mcp-client';

/** /mcp with AUTH_MODE=api_key (issue 22): the session is the key, never more. */
describe('MCP with API keys', () => {
  let app: ListeningApp;
  const alice = newUser('mcp-alice');
  const bob = newUser('mcp-bob');
  const w1 = newId();
  const w2 = newId();
  const agentA = newId();
  const agentB = newId();
  let keyA: CreatedKey;
  let keyW2: CreatedKey;
  let keyBob: CreatedKey;
  let keyAlice: CreatedKey;
  let secretOfA: string;

  beforeAll(async () => {
    app = await startListeningApp(API_KEY_ENV);
    keyA = await agentKey(app.t, alice, w1, agentA);
    keyW2 = await agentKey(app.t, alice, w2, agentB);
    keyBob = await agentKey(app.t, bob, w1, agentA);
    keyAlice = await userKey(app.t, alice);
    const res = await app.t
      .http()
      .post('/v1/memories/ingest/quick')
      .set(bearer(keyA.key))
      .send({ source_site: 'tests', skip_extraction: true, conversation: 'The vault code of W1 is 7310', visibility: 'agent_only' });
    secretOfA = res.body.stored_memory_ids[0];
  });
  afterAll(async () => {
    await app.t.close();
  });

  const post = (headers: Record<string, string>, body: unknown = toolCall('list_memories', {})) =>
    app.t
      .http()
      .post('/mcp')
      .set({ accept: 'application/json, text/event-stream', ...headers })
      .send(body as object);

  it('answers 401 with WWW-Authenticate: Bearer without a valid key, before anything else', async () => {
    for (const res of [
      await post({}),
      await post(bearer('atr_not-a-key')),
      await post({ 'x-atrium-user-id': alice }),
      await app.t.http().get('/mcp'),
      await app.t.http().delete('/mcp'),
    ]) {
      expect({ status: res.status, body: res.body, scheme: res.headers['www-authenticate'] }).toEqual({
        status: 401,
        body: { error: 'invalid or missing API key' },
        scheme: 'Bearer',
      });
    }
    expect((await app.t.http().get('/mcp').set(bearer(keyA.key))).status).toBe(405);
  });

  it('acts as the agent of its key: its own memories, audit events with the key id', async () => {
    const mcp = await connectMcp(app.baseUrl, bearer(keyA.key));
    const [id] = structured<{ stored_memory_ids: string[] }>(
      await call(mcp, 'remember', { content: 'The standup moved to 9:30' }),
    ).stored_memory_ids;
    const [row] = await app.t.dataSource.query('SELECT user_id, workspace_id, agent_id FROM memories WHERE id = $1', [id]);
    expect(row).toEqual({ user_id: alice, workspace_id: w1, agent_id: agentA });
    const ids = structured<{ memories: { id: string }[] }>(await call(mcp, 'list_memories', {})).memories.map((m) => m.id);
    expect(ids.sort()).toEqual([id, secretOfA].sort());
    expect(structured(await call(mcp, 'forget', { id }))).toEqual({ success: true });
    const audit = await app.t.http().get('/v1/admin/audit').set(adminAuth).query({ user_id: alice, workspace_id: w1 });
    const events = (audit.body.events as { action: string; target_id: string; key_id: string | null }[]).filter((e) => e.target_id === id);
    expect(events.map((e) => [e.action, e.key_id]).sort()).toEqual([
      ['memory.deleted', keyA.id],
      ['memory.stored', keyA.id],
    ]);
    // X-API-Key works as well
    const viaHeader = await connectMcp(app.baseUrl, { 'X-API-Key': keyA.key });
    expect(structured<{ count: number }>(await call(viaHeader, 'list_memories', {})).count).toBe(1);
    await viaHeader.close();
    await mcp.close();
  });

  it("never lets another workspace's or another user's key reach W1 of alice", async () => {
    for (const key of [keyW2, keyBob]) {
      const mcp = await connectMcp(app.baseUrl, bearer(key.key));
      expect(structured<{ memories: unknown[] }>(await call(mcp, 'recall', { query: 'vault code' })).memories).toEqual([]);
      expect(textOf(await call(mcp, 'get_memory', { id: secretOfA }))).toBe('memory not found');
      expect(textOf(await call(mcp, 'forget', { id: secretOfA }))).toBe('memory not found');
      await mcp.close();
      // claiming alice's W1 agent in the identity headers is refused with the key's 403
      const claimed = await post({ ...bearer(key.key), ...mcpIdentity({ user_id: alice, workspace_id: w1, agent_id: agentA }) });
      expect({ status: claimed.status, body: claimed.body }).toEqual({ status: 403, body: { error: 'scope does not match the API key' } });
    }
    const [live] = await app.t.dataSource.query('SELECT deleted_at FROM memories WHERE id = $1', [secretOfA]);
    expect(live.deleted_at).toBeNull();
  });

  it("gives a user key the user's personal memories, never a workspace's", async () => {
    const mcp = await connectMcp(app.baseUrl, bearer(keyAlice.key));
    structured(await call(mcp, 'remember', { content: 'My dentist is on Rua Augusta' }));
    const listed = structured<{ memories: { workspace_id: string | null }[] }>(await call(mcp, 'list_memories', { limit: 100 }));
    expect(listed.memories.map((m) => m.workspace_id)).toEqual([null]);
    const recalled = structured<{ memories: { id: string; agent_id: string | null }[] }>(
      await call(mcp, 'recall', { query: 'vault code of W1', limit: 100 }),
    ).memories;
    expect(recalled.map((m) => [m.id === secretOfA, m.agent_id])).toEqual([[false, null]]);
    expect(textOf(await call(mcp, 'get_memory', { id: secretOfA }))).toBe('memory not found');
    await mcp.close();
  });

  it('fails the very next request of an open session once its key is revoked', async () => {
    const key = await agentKey(app.t, alice, w1, agentA);
    const mcp = await connectMcp(app.baseUrl, bearer(key.key));
    expect((await call(mcp, 'recall', { query: 'standup' })).isError).toBeFalsy();
    expect((await app.t.http().delete(`/v1/admin/keys/${key.id}`).set(adminAuth)).status).toBe(200);
    await expect(call(mcp, 'recall', { query: 'standup' })).rejects.toThrow(/invalid or missing API key/);
    await expect(call(mcp, 'remember', { content: 'written after revocation' })).rejects.toThrow(/invalid or missing API key/);
    const [n] = await app.t.dataSource.query("SELECT count(*)::int AS n FROM memories WHERE content = 'written after revocation'");
    expect(n.n).toBe(0);
    await mcp.close().catch(() => undefined);
  });

  it("applies the key's rate limit (429 with Retry-After)", async () => {
    const key = await agentKey(app.t, alice, w1, agentA, { rate_limit_per_minute: 2 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post(bearer(key.key), toolCall('recall', { query: 'standup' })));
    expect(answers.slice(0, 2).map((r) => [r.status, toolResultOf(r.body).isError ?? false])).toEqual([
      [200, false],
      [200, false],
    ]);
    expect(answers[2].status).toBe(429);
    expect(answers[2].headers['retry-after']).toMatch(/^\d+$/);
  });
});
