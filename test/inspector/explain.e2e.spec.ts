import { ADMIN_TOKEN, adminAuth } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * GET /v1/admin/explain (the inspector's "why can agent X see this?"): the rule it names
 * for each kind of memory, and, for every (agent, memory) pair of the seed, that its
 * `visible` is exactly what the real read route answers that agent.
 */
describe('GET /v1/admin/explain', () => {
  let t: TestApp;
  const user = newUser('explained');
  const ws = newId();
  const otherWs = newId();
  const owner = newId();
  const outsider = newId();
  const grantee = newId();
  const m: Record<string, string> = {};
  const SECRET = 'the launch code is 0000-explain';

  const store = async (scope: Record<string, unknown>, conversation: string): Promise<string> => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: user, source_site: 'tests', skip_extraction: true, conversation, ...scope });
    expect({ status: res.status, stored: res.body.stored_memory_ids?.length }).toEqual({ status: 200, stored: 1 });
    return res.body.stored_memory_ids[0];
  };
  const inWs = (agent: string, visibility?: string) => ({ workspace_id: ws, agent_id: agent, ...(visibility ? { visibility } : {}) });
  const explain = (query: Record<string, string>) => t.http().get('/v1/admin/explain').set(adminAuth).query(query);
  const explainFor = (agent: string, memory: string, workspace = ws) =>
    explain({ user_id: user, workspace_id: workspace, agent_id: agent, memory_id: memory });

  beforeAll(async () => {
    t = await createTestApp({ ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
    m.shared = await store(inWs(owner, 'workspace'), `${SECRET}: shared note about the roadmap`);
    m.private = await store(inWs(owner, 'agent_only'), 'Draft idea: rename the billing service');
    m.restricted = await store(inWs(owner, 'restricted'), 'restricted budget figures for the quarter');
    m.legacy = await store(inWs(owner, 'workspace'), 'The wiki moved to the new server in 2023');
    m.personal = await store({}, 'Alice prefers green tea in the morning');
    m.elsewhere = await store({ workspace_id: otherWs, agent_id: owner }, 'The other team meets on Thursdays');
    m.deleted = await store(inWs(owner, 'workspace'), 'The old office was on Elm Street');
    m.expired = await store(inWs(owner, 'workspace'), 'The spring offer ends in March');
    // Rows written before visibility modes existed have NULL; none of today's routes writes one.
    await t.dataSource.query('UPDATE memories SET visibility = NULL WHERE user_id = $1 AND id = $2', [user, m.legacy]);
    // An expiry in the past (the routes only accept future ones; time has passed since).
    await t.dataSource.query("UPDATE memories SET expires_at = now() - interval '1 minute' WHERE user_id = $1 AND id = $2", [
      user,
      m.expired,
    ]);
    const granted = await t
      .http()
      .post(`/v1/memories/${m.restricted}/grants`)
      .send({ user_id: user, ...inWs(owner), grantee_agent_id: grantee });
    expect(granted.status).toBe(201);
    const deleted = await t
      .http()
      .delete(`/v1/memories/${m.deleted}`)
      .query({ user_id: user, ...inWs(owner) });
    expect(deleted.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['the owner, of its agent_only memory', 'owner', 'private', 'owner', null],
    ['the owner, of its restricted memory', 'owner', 'restricted', 'owner', null],
    ['another agent, of a workspace memory', 'outsider', 'shared', 'workspace', null],
    ['another agent, of a legacy NULL-visibility memory', 'outsider', 'legacy', 'workspace', null],
    ['a grantee, of a restricted memory', 'grantee', 'restricted', 'grant', null],
    ['another agent without a grant, of a restricted memory', 'outsider', 'restricted', 'not_visible', 'restricted_without_grant'],
    ['another agent, of an agent_only memory', 'outsider', 'private', 'not_visible', 'agent_only'],
    ['another agent, of a personal memory', 'outsider', 'personal', 'not_visible', 'personal_memory'],
    ['the owner, of its memory in another workspace', 'owner', 'elsewhere', 'not_visible', 'other_workspace'],
    ['the owner, of its deleted memory', 'owner', 'deleted', 'not_visible', 'deleted'],
    ['the owner, of its expired memory', 'owner', 'expired', 'not_visible', 'expired'],
  ])('names the rule for %s', async (_label, agentName, memoryName, rule, hiddenBecause) => {
    const agent = { owner, outsider, grantee }[agentName] as string;
    const res = await explainFor(agent, m[memoryName]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      memory_id: m[memoryName],
      user_id: user,
      workspace_id: ws,
      agent_id: agent,
      visible: rule !== 'not_visible',
      rule,
      hidden_because: hiddenBecause,
    });
  });

  it('reports the row and each condition of the read rule, never the content', async () => {
    const res = await explainFor(grantee, m.restricted);
    expect(res.body.conditions).toEqual({ owner: false, workspace: false, grant: true });
    expect(res.body.memory).toEqual({
      workspace_id: ws,
      agent_id: owner,
      visibility: 'restricted',
      deleted: false,
      superseded: false,
      expired: false,
    });
    const shared = await explainFor(outsider, m.shared);
    expect(JSON.stringify(shared.body)).not.toContain('launch code');
    expect(Object.keys(shared.body).sort()).toEqual(
      ['agent_id', 'conditions', 'hidden_because', 'memory', 'memory_id', 'rule', 'user_id', 'visible', 'workspace_id'].sort(),
    );
  });

  it('agrees with the read route for every agent and memory of the seed', async () => {
    const agents = [owner, outsider, grantee, newId()];
    for (const agent of agents) {
      for (const [name, id] of Object.entries(m)) {
        const verdict = await explainFor(agent, id);
        const read = await t.http().get(`/v1/memories/${id}`).query({ user_id: user, workspace_id: ws, agent_id: agent });
        expect({ name, agent, visible: verdict.body.visible }).toEqual({ name, agent, visible: read.status === 200 });
      }
    }
  });

  it('follows a revoked grant on the very next call', async () => {
    const revoke = await t
      .http()
      .delete(`/v1/memories/${m.restricted}/grants/${grantee}`)
      .query({ user_id: user, ...inWs(owner) });
    expect(revoke.status).toBe(200);
    const res = await explainFor(grantee, m.restricted);
    expect(res.body).toMatchObject({ visible: false, rule: 'not_visible', hidden_because: 'restricted_without_grant' });
    expect(res.body.conditions.grant).toBe(false);
  });

  it('answers 404 for a memory the user does not have', async () => {
    const unknown = await explainFor(outsider, newId());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Memory not found' });
    const otherUser = await explain({ user_id: newUser('someone-else'), workspace_id: ws, agent_id: owner, memory_id: m.shared });
    expect(otherUser.status).toBe(404);
    expect(otherUser.body).toEqual({ error: 'Memory not found' });
  });

  it.each([
    ['user_id', { user_id: '' }, 'user_id (string) is required'],
    ['workspace_id', { workspace_id: 'nope' }, 'workspace_id must be a valid UUID'],
    ['agent_id', { agent_id: '12' }, 'agent_id must be a valid UUID'],
    ['memory_id', { memory_id: 'x' }, 'memory_id must be a valid UUID'],
  ])('refuses a bad %s with 400 naming it', async (_field, bad, message) => {
    const res = await explain({ user_id: user, workspace_id: ws, agent_id: owner, memory_id: m.shared, ...bad });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it('needs the admin token', async () => {
    const query = { user_id: user, workspace_id: ws, agent_id: owner, memory_id: m.shared };
    const none = await t.http().get('/v1/admin/explain').query(query);
    expect(none.status).toBe(401);
    const wrong = await t
      .http()
      .get('/v1/admin/explain')
      .set({ Authorization: 'Bearer not-the-admin-token-but-long-enough-000' })
      .query(query);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid or missing admin token' });
  });
});
