import { MemoryAccess } from '../../src/database/access/memory-access';
import { ExportService } from '../../src/memories/export.service';
import { ADMIN_TOKEN, adminAuth } from '../support/api-keys';
import { newUser } from '../support/ids';
import { newMemoryRow } from '../support/memory-rows';
import { memoryLines, ndjsonLines } from '../support/ndjson';
import { MARKERS, seedIsolation, type AgentName, type IsolationWorld, type MarkerName } from '../support/seed-isolation';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * GET /v1/memories/export (CONTRACT section 13). The oracle is list: an export holds exactly the
 * memories list returns to the same caller (the same read rule, in the same SQL predicate), for
 * every caller of the isolation world and every agent_scope; the admin's export of a subject
 * holds its every live row, any visibility.
 */
describe('export', () => {
  let t: TestApp;
  let world: IsolationWorld;

  beforeAll(async () => {
    t = await createTestApp({ ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
    world = await seedIsolation(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const exportOf = async (query: Record<string, unknown>, auth: Record<string, string> = {}) => {
    const res = await ndjsonLines(t.http().get('/v1/memories/export').set(auth).query(query));
    expect(res.status).toBe(200);
    return { ...res, memories: memoryLines(res.lines) };
  };
  const listIds = async (query: Record<string, unknown>): Promise<string[]> => {
    const res = await t
      .http()
      .get('/v1/memories/list')
      .query({ ...query, limit: 100 });
    expect(res.status).toBe(200);
    return (res.body.memories as { id: string }[]).map((m) => m.id).sort();
  };
  const names = (rows: Record<string, unknown>[]) => rows.map((row) => world.nameOf(row.id as string)).sort();

  const callers = (): [string, Record<string, unknown>][] => {
    const w = world;
    const agent = (user: 'A' | 'C', ws: 'W1' | 'W2', a: AgentName) => ({ user_id: w.users[user], workspace_id: w.workspaces[ws], agent_id: w.agents[a] });
    const out: [string, Record<string, unknown>][] = [
      ['A user scope', { user_id: w.users.A }],
      ['B user scope', { user_id: w.users.B }],
      ['C user scope', { user_id: w.users.C }],
    ];
    for (const a of ['X', 'Y', 'Z', 'O'] as AgentName[]) {
      out.push([`A W1 ${a}`, agent('A', 'W1', a)]);
      for (const agentScope of ['self', 'others', w.agents.Y]) out.push([`A W1 ${a} agent_scope ${agentScope}`, { ...agent('A', 'W1', a), agent_scope: agentScope }]);
    }
    out.push(['A W2 X', agent('A', 'W2', 'X')], ['A W2 Y', agent('A', 'W2', 'Y')], ['C W1 X', agent('C', 'W1', 'X')], ['C W1 Y', agent('C', 'W1', 'Y')]);
    return out;
  };

  it('holds exactly what list returns to the same caller, for every caller and agent_scope', async () => {
    for (const [label, query] of callers()) {
      const { memories } = await exportOf(query);
      expect({ label, ids: memories.map((m) => m.id as string).sort() }).toEqual({ label, ids: await listIds(query) });
    }
  });

  it("never gives an agent another agent's private or ungranted restricted rows, nor a user scope any workspace row", async () => {
    const x = await exportOf({ user_id: world.users.A, workspace_id: world.workspaces.W1, agent_id: world.agents.X });
    expect(names(x.memories)).toEqual(
      ['W1.X.workspace', 'W1.X.agent_only', 'W1.X.restricted.grantY', 'W1.X.restricted', 'W1.Y.workspace', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy'].sort(),
    );
    const user = await exportOf({ user_id: world.users.A });
    expect(names(user.memories)).toEqual(['A.user']);
    expect(user.memories.every((m) => m.workspace_id === null)).toBe(true);
  });

  it('writes the header and end lines, the record fields of sections 4 and 12, and the grants for the owner only', async () => {
    const scope = { user_id: world.users.A, workspace_id: world.workspaces.W1, agent_id: world.agents.X };
    const res = await exportOf(scope);
    expect(res.type).toMatch(/^application\/x-ndjson/);
    const header = res.lines[0];
    expect(header).toEqual({
      format: 'atrium.export',
      version: 1,
      exported_at: expect.any(String),
      scope: { kind: 'workspace', user_id: world.users.A, workspace_id: world.workspaces.W1, agent_id: world.agents.X, agent_scope: 'all' },
      embedding: { provider: 'hash', model: expect.any(String), dimensions: t.env.EMBEDDING_DIMENSIONS },
    });
    expect(res.lines[res.lines.length - 1]).toEqual({ end: true, count: res.memories.length });
    const granted = res.memories.find((m) => m.id === world.ids['W1.X.restricted.grantY'])!;
    expect(granted).toMatchObject({ version: 1, expires_at: null, valid_until: null, visibility: 'restricted', agent_id: world.agents.X });
    expect(granted.grants).toEqual([{ grantee_agent_id: world.agents.Y, created_at: expect.any(String) }]);
    expect(granted.embedding).toBeUndefined();
    // another agent's row: no grants key
    expect(res.memories.find((m) => m.id === world.ids['W1.Y.workspace'])).not.toHaveProperty('grants');
    // the grantee sees the memory, not its grants
    const y = await exportOf({ ...scope, agent_id: world.agents.Y });
    expect(y.memories.find((m) => m.id === world.ids['W1.X.restricted.grantY'])).not.toHaveProperty('grants');
    // oldest first
    const created = res.memories.map((m) => m.created_at as string);
    expect([...created].sort()).toEqual(created);
  });

  it('adds the vectors with include_vectors=true', async () => {
    const { memories } = await exportOf({ user_id: world.users.B, include_vectors: 'true' });
    expect(memories).toHaveLength(1);
    expect(memories[0].embedding).toHaveLength(t.env.EMBEDDING_DIMENSIONS);
  });

  it("exports a subject's every live row, any visibility, with the admin token (a user, or one of its workspaces)", async () => {
    const live = (filter: (name: MarkerName) => boolean) =>
      (Object.keys(MARKERS) as MarkerName[]).filter((name) => filter(name) && !('state' in MARKERS[name])).sort();
    const user = await exportOf({ user_id: world.users.A }, adminAuth);
    expect(user.lines[0].scope).toEqual({ kind: 'subject', user_id: world.users.A, workspace_id: null });
    expect(names(user.memories)).toEqual(live((name) => MARKERS[name].tenant === 'A'));
    expect(user.memories.find((m) => m.id === world.ids['W1.Y.restricted'])).toMatchObject({ grants: [] });
    const w2 = await exportOf({ user_id: world.users.A, workspace_id: world.workspaces.W2 }, adminAuth);
    expect(names(w2.memories)).toEqual(live((name) => MARKERS[name].tenant === 'A' && MARKERS[name].workspace === 'W2'));
  });

  it('answers 400 naming the field for bad input, before any line', async () => {
    const bad = [
      [{ user_id: world.users.A, include_vectors: 'yes' }, 'include_vectors must be true or false'],
      [{ user_id: world.users.A, workspace_id: world.workspaces.W1 }, 'agent_id is required for workspace queries'],
      [{}, 'user_id (string) is required'],
    ] as const;
    for (const [query, error] of bad) {
      const res = await t.http().get('/v1/memories/export').query(query);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error } });
    }
    const admin = await t.http().get('/v1/memories/export').set(adminAuth).query({ user_id: world.users.A, workspace_id: 'nope' });
    expect({ status: admin.status, body: admin.body }).toEqual({ status: 400, body: { error: 'workspace_id must be a valid UUID' } });
  });

  it('pages by keyset: every row once, in order, across many pages (rows sharing a created_at included)', async () => {
    const userId = newUser('export-pages');
    const vector = new Array<number>(t.env.EMBEDDING_DIMENSIONS).fill(0);
    vector[0] = 1;
    const at = new Date('2026-01-01T00:00:00.000Z');
    const rows = Array.from({ length: 230 }, (_, i) =>
      newMemoryRow(userId, `row ${i}`, vector, {
        sourceSite: 'pages',
        // a third of the rows share one instant: the id breaks the tie
        createdAt: i % 3 === 0 ? at : new Date(at.getTime() + i * 1000),
        updatedAt: at,
      }),
    );
    await t.app.get(MemoryAccess).insertMemories(rows);
    const exports = t.app.get(ExportService);
    let text = '';
    for await (const chunk of exports.lines({ kind: 'scope', scope: { kind: 'user', userId } }, { includeVectors: false, includeExpired: false, pageSize: 7 }))
      text += chunk;
    const memories = memoryLines(text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>));
    expect(memories.map((m) => m.id).sort()).toEqual(rows.map((r) => r.id).sort());
    const keys = memories.map((m) => `${m.created_at as string}|${m.id as string}`);
    expect([...keys].sort()).toEqual(keys);
  });
});
