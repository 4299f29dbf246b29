import { IngestService } from '../../src/ingest/ingest.service';
import { AccessTracker } from '../../src/memories/access-tracker';
import { MemoriesService } from '../../src/memories/memories.service';
import { SearchService } from '../../src/retrieval/search.service';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

const RECORD_FIELDS = [
  'access_count',
  'agent_id',
  'content',
  'created_at',
  'episode_id',
  'id',
  'importance',
  'last_accessed_at',
  'memory_type',
  'metadata',
  'namespace',
  'source_site',
  'source_url',
  'status',
  'trust_score',
  'updated_at',
  'user_id',
  'visibility',
  'workspace_id',
  // CONTRACT section 12
  'version',
  'expires_at',
  'valid_until',
].sort();
const HIT_FIELDS = [
  'agent_id',
  'content',
  'created_at',
  'id',
  'importance',
  'metadata',
  'score',
  'similarity',
  'source_site',
  'visibility',
  'workspace_id',
].sort();
const INGEST_FIELDS = [
  'episode_id',
  'facts_extracted',
  'memories_deleted',
  'memories_skipped',
  'memories_stored',
  'memories_updated',
  'stored_memory_ids',
  'updated_memory_ids',
].sort();

describe('memory routes', () => {
  let t: TestApp;
  const user = newUser();
  const ws = newId();
  const agentX = newId();
  const agentY = newId();

  beforeAll(async () => {
    // The runtime config poll (every 500 ms by default) queries the database in the background;
    // slowed to a minute here so the guard test below sees the request's own queries only.
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
    expect(res.body.stored_memory_ids).toHaveLength(1);
    return res.body.stored_memory_ids[0];
  };
  const countRows = async (): Promise<number> => Number((await t.dataSource.query('SELECT count(*) AS n FROM memories'))[0].n);

  describe('POST /v1/memories/ingest/quick', () => {
    it('extracts facts from a conversation and answers with the CONTRACT shape', async () => {
      const res = await t.http().post('/v1/memories/ingest/quick').send({
        user_id: user,
        source_site: 'chat.example',
        conversation:
          'user: Hi there!\nuser: I live in Lisbon and I work as a marine biologist.\nassistant: Nice! What do you study?\nuser: My favourite food is grilled sardines.\nuser: What time is it?',
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(INGEST_FIELDS);
      expect(res.body.facts_extracted).toBe(2);
      expect(res.body.memories_stored).toBe(2);
      expect(res.body.stored_memory_ids).toHaveLength(2);
      expect(res.body.episode_id).toMatch(/^[0-9a-f-]{36}$/);
      const list = await t.http().get('/v1/memories/list').query({ user_id: user, episode_id: res.body.episode_id });
      expect(list.body.memories.map((m: { content: string }) => m.content).sort()).toEqual([
        'I live in Lisbon and I work as a marine biologist.',
        'My favourite food is grilled sardines.',
      ]);
    });

    it('stores the conversation verbatim with skip_extraction', async () => {
      const id = await store({ user_id: user, conversation: 'Plain note: the VPN config lives in ~/work/vpn.conf' });
      const got = await t.http().get(`/v1/memories/${id}`).query({ user_id: user });
      expect(got.body.content).toBe('Plain note: the VPN config lives in ~/work/vpn.conf');
    });

    it('skips a duplicate of a memory the writer can see', async () => {
      const conversation = `Unique fact ${newId()}: the staging database is on port 6543`;
      await store({ user_id: user, conversation });
      const again = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'tests', skip_extraction: true, conversation });
      expect(again.body).toMatchObject({ memories_stored: 0, memories_skipped: 1, stored_memory_ids: [] });
      // the episode is recorded all the same, alone
      const episodes = await t.dataSource.query('SELECT content FROM episodes WHERE id = $1', [again.body.episode_id]);
      expect(episodes).toEqual([{ content: conversation }]);
    });

    it('writes the episode in the same statement as its rows, so an ingest is one transaction', async () => {
      const logged: string[] = [];
      const spy = jest.spyOn(t.dataSource.logger, 'logQuery').mockImplementation((query: string) => void logged.push(query));
      let res: { body: { episode_id: string; stored_memory_ids: string[] } };
      try {
        res = await t
          .http()
          .post('/v1/memories/ingest/quick')
          .send({
            user_id: user,
            source_site: 'tests',
            conversation: `user: I keep my bike keys ${newId()} in the blue bowl by the door.`,
          });
      } finally {
        spy.mockRestore();
      }
      expect(res.body.stored_memory_ids).toHaveLength(1);
      const writes = logged.filter((q) => /INSERT INTO\s+"?episodes"?/i.test(q));
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/INSERT INTO "memories"/);
      // (COMMITs are not counted: the term statistics fold commits beside the request on its own schedule.)
      const [episode] = await t.dataSource.query('SELECT user_id, source_site FROM episodes WHERE id = $1', [res.body.episode_id]);
      expect(episode).toEqual({ user_id: user, source_site: 'tests' });
      const [row] = await t.dataSource.query('SELECT episode_id FROM memories WHERE id = $1', [res.body.stored_memory_ids[0]]);
      expect(row.episode_id).toBe(res.body.episode_id);
    });

    it('gives workspace writes the caller as owner and workspace visibility by default', async () => {
      const id = await store({ user_id: user, workspace_id: ws, agent_id: agentX, conversation: 'Shared: deploys happen on Tuesdays' });
      const got = await t.http().get(`/v1/memories/${id}`).query({ user_id: user, workspace_id: ws, agent_id: agentY });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ workspace_id: ws, agent_id: agentX, visibility: 'workspace' });
    });

    it('accepts and ignores a well-formed agent_scope on a write (the writer owns what it writes)', async () => {
      const id = await store({
        user_id: user,
        workspace_id: ws,
        agent_id: agentX,
        agent_scope: agentY,
        conversation: 'Scope on a write: the demo is on Thursday',
      });
      const got = await t.http().get(`/v1/memories/${id}`).query({ user_id: user, workspace_id: ws, agent_id: agentX });
      expect(got.body).toMatchObject({ agent_id: agentX, visibility: 'workspace' });
    });

    it('rejects visibility in user scope and writes nothing', async () => {
      const before = await countRows();
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'tests', conversation: 'I like tea very much indeed', visibility: 'agent_only' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/visibility is only allowed with workspace_id/);
      expect(await countRows()).toBe(before);
    });
  });

  describe('GET /v1/memories/:id', () => {
    it('returns the full memory record and never the embedding', async () => {
      const id = await store({
        user_id: user,
        conversation: 'Record shape check: my bike is a blue Brompton',
        metadata: { topic: 'bikes' },
        namespace: 'personal',
      });
      const res = await t.http().get(`/v1/memories/${id}`).query({ user_id: user });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(RECORD_FIELDS);
      expect(res.body).toMatchObject({
        id,
        user_id: user,
        memory_type: 'semantic',
        status: 'active',
        metadata: { topic: 'bikes' },
        namespace: 'personal',
        workspace_id: null,
        agent_id: null,
        visibility: null,
        source_site: 'tests',
      });
      expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    });

    it('answers 404 Memory not found for an unknown id', async () => {
      const res = await t.http().get(`/v1/memories/${newId()}`).query({ user_id: user });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Memory not found' });
    });

    it('answers 400 for an id that is not a UUID', async () => {
      const res = await t.http().get('/v1/memories/not-a-uuid').query({ user_id: user });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'id must be a valid UUID' });
    });

    it('records access off the response path', async () => {
      const id = await store({ user_id: user, conversation: 'Access counting: my locker number is 4417' });
      await t.http().get(`/v1/memories/${id}`).query({ user_id: user });
      await t.app.get(AccessTracker).flush();
      const res = await t.http().get(`/v1/memories/${id}`).query({ user_id: user });
      expect(res.body.access_count).toBeGreaterThanOrEqual(1);
      expect(res.body.last_accessed_at).not.toBeNull();
    });

    it('counts every read exactly when reads of the same rows overlap (the writes are merged)', async () => {
      const counted = newUser('access');
      const a = await store({ user_id: counted, conversation: 'Overlapping reads: the boiler pressure should be 1.5 bar' });
      const b = await store({ user_id: counted, conversation: 'Overlapping reads: the boiler was serviced in March' });
      // 12 reads of a alone, 12 of a and b together (expand), 6 searches that return both; all at once
      const reads = [
        ...Array.from({ length: 12 }, () => t.http().get(`/v1/memories/${a}`).query({ user_id: counted })),
        ...Array.from({ length: 12 }, () =>
          t
            .http()
            .post('/v1/memories/expand')
            .send({ user_id: counted, memory_ids: [a, b] }),
        ),
        ...Array.from({ length: 6 }, () => t.http().post('/v1/memories/search/fast').send({ user_id: counted, query: 'boiler', limit: 5 })),
      ];
      const answers = await Promise.all(reads);
      expect(answers.map((r) => r.status)).toEqual(reads.map(() => 200));
      expect(answers.slice(24).map((r) => r.body.count)).toEqual([2, 2, 2, 2, 2, 2]);
      await t.app.get(AccessTracker).flush();
      const rows: { id: string; access_count: number }[] = await t.dataSource.query(
        'SELECT memory_id AS id, access_count FROM memory_access_counts WHERE user_id = $1 ORDER BY access_count DESC',
        [counted],
      );
      expect(rows).toEqual([
        { id: a, access_count: 30 },
        { id: b, access_count: 18 },
      ]);
    });
  });

  describe('GET /v1/memories/list', () => {
    it('answers {memories, count}, newest first, with limit and offset', async () => {
      const listUser = newUser('list');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await store({ user_id: listUser, conversation: `List item number ${i} about gardening tools` }));
      const all = await t.http().get('/v1/memories/list').query({ user_id: listUser });
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(3);
      expect(all.body.memories.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
      const page = await t.http().get('/v1/memories/list').query({ user_id: listUser, limit: '1', offset: '1' });
      expect(page.body).toMatchObject({ count: 1 });
      expect(page.body.memories[0].id).toBe(ids[1]);
    });

    it('filters by source_site in user scope', async () => {
      const listUser = newUser('site');
      await store({ user_id: listUser, conversation: 'From the wiki: the office closes at 6pm', source_site: 'wiki' });
      await store({ user_id: listUser, conversation: 'From chat: I parked on level 3 today', source_site: 'chat' });
      const res = await t.http().get('/v1/memories/list').query({ user_id: listUser, source_site: 'wiki' });
      expect(res.body.memories.map((m: { source_site: string }) => m.source_site)).toEqual(['wiki']);
    });
  });

  describe('POST /v1/memories/search and /search/fast', () => {
    const searchUser = newUser('search');
    beforeAll(async () => {
      await store({ user_id: searchUser, conversation: 'My dentist appointment is on Friday at 3pm' });
      await store({ user_id: searchUser, conversation: 'I prefer aisle seats on long flights' });
      await store({ user_id: searchUser, conversation: 'The wifi password at the cabin is pinecone42' });
    });

    it('search answers with the CONTRACT shape and ranks the matching memory first', async () => {
      const res = await t
        .http()
        .post('/v1/memories/search')
        .send({ user_id: searchUser, query: 'which seats do I prefer on flights', limit: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ retrieval_mode: 'flat', scope: { kind: 'user', user_id: searchUser }, count: 2 });
      expect(res.body.memories).toHaveLength(2);
      expect(Object.keys(res.body.memories[0]).sort()).toEqual(HIT_FIELDS);
      expect(res.body.memories[0].content).toBe('I prefer aisle seats on long flights');
      expect(res.body.citations).toEqual(res.body.memories.map((m: { id: string }) => m.id));
      expect(res.body.injection_text).toContain('I prefer aisle seats on long flights');
      expect(res.body.memories[0].score).toBeGreaterThanOrEqual(res.body.memories[1].score);
    });

    it('search/fast answers with the same shape, ranked by similarity', async () => {
      const res = await t.http().post('/v1/memories/search/fast').send({ user_id: searchUser, query: 'wifi password cabin' });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.memories[0].content).toContain('pinecone42');
      const sims = res.body.memories.map((m: { similarity: number }) => m.similarity);
      expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    });

    it('echoes the workspace scope with agent_scope', async () => {
      const res = await t
        .http()
        .post('/v1/memories/search')
        .send({ user_id: user, workspace_id: ws, agent_id: agentX, agent_scope: 'self', query: 'deploys' });
      expect(res.body.scope).toEqual({ kind: 'workspace', user_id: user, workspace_id: ws, agent_id: agentX, agent_scope: 'self' });
    });
  });

  describe('POST /v1/memories/expand', () => {
    it('returns visible memories in the order asked and leaves out unknown ids', async () => {
      const a = await store({ user_id: user, conversation: 'Expand A: my sister lives in Porto' });
      const b = await store({ user_id: user, conversation: 'Expand B: my brother lives in Faro' });
      const res = await t
        .http()
        .post('/v1/memories/expand')
        .send({ user_id: user, memory_ids: [b, newId(), a.toUpperCase()] });
      expect(res.status).toBe(200);
      expect(res.body.memories.map((m: { id: string }) => m.id)).toEqual([b, a]);
    });
  });

  describe('DELETE /v1/memories/:id', () => {
    it('soft-deletes in user scope and answers success even for an unknown id', async () => {
      const id = await store({ user_id: user, conversation: 'Delete me: my old phone number was 555-0101' });
      expect((await t.http().delete(`/v1/memories/${id}`).query({ user_id: user })).body).toEqual({ success: true });
      expect((await t.http().get(`/v1/memories/${id}`).query({ user_id: user })).status).toBe(404);
      const row = await t.dataSource.query('SELECT deleted_at FROM memories WHERE id = $1', [id]);
      expect(row[0].deleted_at).not.toBeNull();
      expect((await t.http().delete(`/v1/memories/${newId()}`).query({ user_id: user })).body).toEqual({ success: true });
    });

    it('answers 404 in workspace scope when nothing visible matched', async () => {
      const res = await t.http().delete(`/v1/memories/${newId()}`).query({ user_id: user, workspace_id: ws, agent_id: agentX });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Memory not found' });
    });
  });

  describe('PATCH /v1/memories/:id and grants', () => {
    it('lets the owner change visibility, answers 403 to a viewer and 404 to an agent that cannot see it', async () => {
      const id = await store({ user_id: user, workspace_id: ws, agent_id: agentX, conversation: 'Owner test: the budget is 40k' });
      const byY = await t
        .http()
        .patch(`/v1/memories/${id}`)
        .send({ user_id: user, workspace_id: ws, agent_id: agentY, visibility: 'agent_only' });
      expect(byY.status).toBe(403);
      const byX = await t
        .http()
        .patch(`/v1/memories/${id}`)
        .send({ user_id: user, workspace_id: ws, agent_id: agentX, visibility: 'agent_only' });
      expect(byX.status).toBe(200);
      expect(byX.body).toMatchObject({ id, visibility: 'agent_only' });
      const nowHidden = await t
        .http()
        .patch(`/v1/memories/${id}`)
        .send({ user_id: user, workspace_id: ws, agent_id: agentY, visibility: 'workspace' });
      expect(nowHidden.status).toBe(404);
    });

    it('creates (201), repeats (200), lists and revokes a grant; the grant applies at once', async () => {
      const id = await store({
        user_id: user,
        workspace_id: ws,
        agent_id: agentX,
        visibility: 'restricted',
        conversation: 'Grant test: salary bands are in the HR drive',
      });
      const owner = { user_id: user, workspace_id: ws, agent_id: agentX };
      const asY = { user_id: user, workspace_id: ws, agent_id: agentY };
      expect((await t.http().get(`/v1/memories/${id}`).query(asY)).status).toBe(404);

      const created = await t
        .http()
        .post(`/v1/memories/${id}/grants`)
        .send({ ...owner, grantee_agent_id: agentY });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(['created_at', 'grantee_agent_id', 'memory_id']);
      expect(created.body).toMatchObject({ memory_id: id, grantee_agent_id: agentY });
      const repeated = await t
        .http()
        .post(`/v1/memories/${id}/grants`)
        .send({ ...owner, grantee_agent_id: agentY });
      expect(repeated.status).toBe(200);
      expect(repeated.body.created_at).toBe(created.body.created_at);

      expect((await t.http().get(`/v1/memories/${id}`).query(asY)).status).toBe(200);
      const listed = await t.http().get(`/v1/memories/${id}/grants`).query(owner);
      expect(listed.body).toEqual({ grants: [{ grantee_agent_id: agentY, created_at: created.body.created_at }], count: 1 });

      expect((await t.http().get(`/v1/memories/${id}/grants`).query(asY)).status).toBe(403);
      expect(
        (
          await t
            .http()
            .post(`/v1/memories/${id}/grants`)
            .send({ ...asY, grantee_agent_id: newId() })
        ).status,
      ).toBe(403);

      const revoked = await t.http().delete(`/v1/memories/${id}/grants/${agentY}`).query(owner);
      expect(revoked.body).toEqual({ success: true });
      expect((await t.http().get(`/v1/memories/${id}`).query(asY)).status).toBe(404);
      expect((await t.http().delete(`/v1/memories/${id}/grants/${agentY}`).query(owner)).status).toBe(404);
    });

    it('refuses grants on a memory that is not restricted with 409', async () => {
      const id = await store({ user_id: user, workspace_id: ws, agent_id: agentX, conversation: 'Not restricted: lunch is at noon' });
      const res = await t
        .http()
        .post(`/v1/memories/${id}/grants`)
        .send({ user_id: user, workspace_id: ws, agent_id: agentX, grantee_agent_id: agentY });
      expect(res.status).toBe(409);
    });

    it('drops grants when the owner makes a restricted memory visible to all', async () => {
      const id = await store({
        user_id: user,
        workspace_id: ws,
        agent_id: agentX,
        visibility: 'restricted',
        conversation: 'Grant reset: the launch date is March 3',
      });
      const owner = { user_id: user, workspace_id: ws, agent_id: agentX };
      await t
        .http()
        .post(`/v1/memories/${id}/grants`)
        .send({ ...owner, grantee_agent_id: agentY });
      await t
        .http()
        .patch(`/v1/memories/${id}`)
        .send({ ...owner, visibility: 'workspace' });
      await t
        .http()
        .patch(`/v1/memories/${id}`)
        .send({ ...owner, visibility: 'restricted' });
      expect((await t.http().get(`/v1/memories/${id}`).query({ user_id: user, workspace_id: ws, agent_id: agentY })).status).toBe(404);
    });
  });

  describe('the workspace guard', () => {
    it.each([
      ['get', () => t.http().get(`/v1/memories/${newId()}`).query({ user_id: user, workspace_id: ws })],
      ['list', () => t.http().get('/v1/memories/list').query({ user_id: user, workspace_id: ws })],
      ['delete', () => t.http().delete(`/v1/memories/${newId()}`).query({ user_id: user, workspace_id: ws })],
      ['search', () => t.http().post('/v1/memories/search').send({ user_id: user, workspace_id: ws, query: 'x' })],
      ['search/fast', () => t.http().post('/v1/memories/search/fast').send({ user_id: user, workspace_id: ws, query: 'x' })],
      [
        'expand',
        () =>
          t
            .http()
            .post('/v1/memories/expand')
            .send({ user_id: user, workspace_id: ws, memory_ids: [newId()] }),
      ],
      [
        'ingest/quick',
        () =>
          t
            .http()
            .post('/v1/memories/ingest/quick')
            .send({ user_id: user, workspace_id: ws, source_site: 's', conversation: 'I like tea a lot' }),
      ],
    ])('rejects a workspace %s without agent_id before any service or database work', async (_name, send) => {
      const services = [
        ...['get', 'list', 'delete', 'expand'].map((m) => jest.spyOn(t.app.get(MemoriesService), m as 'get')),
        ...['search', 'searchFast'].map((m) => jest.spyOn(t.app.get(SearchService), m as 'search')),
        ...['ingest', 'ingestQuick'].map((m) => jest.spyOn(t.app.get(IngestService), m as 'ingest')),
      ];
      const queries = jest.spyOn(t.dataSource, 'createQueryRunner');
      try {
        const res = await send();
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'agent_id is required for workspace queries' });
        for (const spy of services) expect(spy).not.toHaveBeenCalled();
        expect(queries).not.toHaveBeenCalled();
      } finally {
        services.forEach((s) => s.mockRestore());
        queries.mockRestore();
      }
    });
  });
});
