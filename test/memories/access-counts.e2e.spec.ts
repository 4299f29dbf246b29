import { MemoryAccessCounts1763700150000 } from '../../migrations/1763700150000-memory-access-counts';
import type { MemoryScope } from '../../src/common/scope/memory-scope';
import { AccessTracker } from '../../src/memories/access-tracker';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Access counts live in memory_access_counts (one row per memory read, keyed by user and
 * memory id), written by the batched AccessTracker and joined by the record reads. They are
 * never readable except through a memory the caller may see.
 */
describe('memory access counts', () => {
  let t: TestApp;
  const user = newUser('counts');
  const ws = newId();
  const owner = newId();
  const stranger = newId();
  const ownerScope = { user_id: user, workspace_id: ws, agent_id: owner };
  const strangerScope = { user_id: user, workspace_id: ws, agent_id: stranger };

  beforeAll(async () => {
    t = await createTestApp({ RUNTIME_CONFIG_POLL_MS: '60000' });
  });
  afterAll(async () => {
    await t.close();
  });

  const store = async (body: Record<string, unknown>): Promise<string> => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ source_site: 'tests', skip_extraction: true, ...body });
    expect(res.status).toBe(200);
    return res.body.stored_memory_ids[0] as string;
  };
  const flush = () => t.app.get(AccessTracker).flush();
  const countRows = async (memoryId: string): Promise<{ user_id: string; access_count: number }[]> =>
    t.dataSource.query('SELECT user_id, access_count FROM memory_access_counts WHERE memory_id = $1', [memoryId]);
  const get = (id: string, scope: Record<string, unknown>) => t.http().get(`/v1/memories/${id}`).query(scope);

  it('counts reads in memory_access_counts and leaves the memory row untouched', async () => {
    const id = await store({ user_id: user, conversation: 'Counts table: the shed key hangs by the door' });
    const [before] = await t.dataSource.query('SELECT xmin::text AS v, access_count FROM memories WHERE id = $1', [id]);
    for (let i = 0; i < 3; i++) expect((await get(id, { user_id: user })).status).toBe(200);
    await flush();
    const res = await get(id, { user_id: user });
    expect(res.body.access_count).toBe(3);
    expect(new Date(res.body.last_accessed_at).getTime()).toBeGreaterThan(0);
    expect(await countRows(id)).toEqual([{ user_id: user, access_count: 3 }]);
    // same row version: the reads wrote nothing into memories
    expect(await t.dataSource.query('SELECT xmin::text AS v, access_count FROM memories WHERE id = $1', [id])).toEqual([before]);
  });

  it('a memory never read answers access_count 0 and last_accessed_at null', async () => {
    const id = await store({ user_id: user, conversation: 'Counts table: the bike is blue' });
    const listed = await t.http().get('/v1/memories/list').query({ user_id: user, limit: 100 });
    const record = listed.body.memories.find((m: { id: string }) => m.id === id);
    expect(record).toMatchObject({ access_count: 0, last_accessed_at: null });
    expect(await countRows(id)).toEqual([]);
  });

  it('counts survive a visibility change and show in get, list and expand alike', async () => {
    const id = await store({ ...ownerScope, visibility: 'workspace', conversation: 'Counts table: the standup moved to 9:30' });
    await get(id, ownerScope);
    await get(id, strangerScope);
    await flush();
    const patched = await t
      .http()
      .patch(`/v1/memories/${id}`)
      .send({ ...ownerScope, visibility: 'agent_only' });
    expect(patched.status).toBe(200);
    expect(patched.body.access_count).toBe(2);
    // list first: it records no access, while expand records one after it answers
    const listed = await t
      .http()
      .get('/v1/memories/list')
      .query({ ...ownerScope, limit: 100 });
    const expanded = await t
      .http()
      .post('/v1/memories/expand')
      .send({ ...ownerScope, memory_ids: [id] });
    expect(expanded.body.memories[0].access_count).toBe(2);
    expect(listed.body.memories.find((m: { id: string }) => m.id === id).access_count).toBe(2);
  });

  it('survive the migration both ways (copied out of memories, and back on down)', async () => {
    const id = await store({ user_id: user, conversation: 'Counts table: the migration keeps the counts' });
    await get(id, { user_id: user });
    await get(id, { user_id: user });
    await flush();
    const migration = new MemoryAccessCounts1763700150000();
    // both ways in one transaction on one connection (the embedded database serves every
    // connection from one backend), committed: the app reads the rebuilt table afterwards
    await t.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      await migration.down(runner);
      expect(await runner.query('SELECT access_count FROM memories WHERE id = $1', [id])).toEqual([{ access_count: 2 }]);
      await migration.up(runner);
    });
    expect(await countRows(id)).toEqual([{ user_id: user, access_count: 2 }]);
    expect((await get(id, { user_id: user })).body.access_count).toBe(2);
  });

  it('deleting a memory removes its counts', async () => {
    const id = await store({ ...ownerScope, conversation: 'Counts table: this one will be deleted' });
    await get(id, ownerScope);
    await flush();
    expect(await countRows(id)).toHaveLength(1);
    expect((await t.http().delete(`/v1/memories/${id}`).query(ownerScope)).status).toBe(200);
    expect(await countRows(id)).toEqual([]);
    expect((await get(id, ownerScope)).status).toBe(404);
  });

  it("a restricted memory's counts are neither readable nor writable by an agent that cannot see it", async () => {
    const id = await store({ ...ownerScope, visibility: 'restricted', conversation: 'Counts table: the acquisition target is Fernwood' });
    await get(id, ownerScope);
    await flush();
    // the stranger's reads find nothing, and its recorded accesses (even forced) count nothing
    expect((await get(id, strangerScope)).status).toBe(404);
    const expanded = await t
      .http()
      .post('/v1/memories/expand')
      .send({ ...strangerScope, memory_ids: [id] });
    expect(expanded.body).toEqual({ memories: [] });
    const listed = await t
      .http()
      .get('/v1/memories/list')
      .query({ ...strangerScope, limit: 100 });
    expect(listed.body.memories.map((m: { id: string }) => m.id)).not.toContain(id);
    const tracker = t.app.get(AccessTracker);
    const strangerMemoryScope: MemoryScope = {
      kind: 'workspace',
      userId: user,
      workspaceId: ws,
      agentId: stranger,
      agentScope: { kind: 'all' },
    };
    tracker.record(strangerMemoryScope, [id]);
    tracker.record({ kind: 'user', userId: user }, [id]);
    tracker.record({ kind: 'user', userId: newUser('other') }, [id]);
    await flush();
    expect(await countRows(id)).toEqual([{ user_id: user, access_count: 1 }]);

    // a grant opens the memory, counts included; the revocation closes both again
    await t
      .http()
      .post(`/v1/memories/${id}/grants`)
      .send({ ...ownerScope, grantee_agent_id: stranger });
    const granted = await get(id, strangerScope);
    expect(granted.status).toBe(200);
    expect(granted.body.access_count).toBe(1);
    await flush();
    await t.http().delete(`/v1/memories/${id}/grants/${stranger}`).query(ownerScope);
    expect((await get(id, strangerScope)).status).toBe(404);
    expect((await get(id, ownerScope)).body.access_count).toBe(2);
  });
});
