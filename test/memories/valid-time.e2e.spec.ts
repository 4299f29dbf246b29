import { installControlledEmbeddings, startControlledEmbeddings } from '../support/controlled-embeddings';
import { chatCompletionBody, type FakeOpenAiServer } from '../support/fake-openai-server';
import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

const CHAT = '/v1/chat/completions';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Valid time (CONTRACT section 12): a superseded memory is valid until its successor's
 * creation, and `as_of=T` on search and search/fast returns what was known and valid at T,
 * in user and in workspace scope: a chain A superseded by B superseded by C (the LLM's
 * SUPERSEDE, through a fake OpenAI-compatible server), and a memory deleted later.
 */
describe('as_of: what was true at T', () => {
  let t: TestApp;
  let fake: FakeOpenAiServer;

  beforeAll(async () => {
    fake = await startControlledEmbeddings();
    t = await createTestApp({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_BASE_URL: fake.baseUrl,
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'fake-chat',
      LLM_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    installControlledEmbeddings(fake);
  });

  const chat = (content: unknown) => ({ path: CHAT, body: chatCompletionBody(JSON.stringify(content)) });
  const extracted = (content: string) => chat({ facts: [{ content, memory_type: 'semantic', importance: 0.6 }] });

  const scopes: [string, () => Record<string, string>][] = [
    ['user scope', () => ({ user_id: newUser('asof') })],
    ['workspace scope', () => ({ user_id: newUser('asof'), workspace_id: newId(), agent_id: newId() })],
  ];

  it.each(scopes)(
    'returns, in %s, the chain member valid at each instant and a deleted memory only before its deletion',
    async (_name, makeScope) => {
      const scope = makeScope();
      const seed = async (content: string) => {
        const res = await t
          .http()
          .post('/v1/memories/ingest/quick')
          .send({ ...scope, source_site: 'seed', skip_extraction: true, conversation: content });
        return res.body.stored_memory_ids[0] as string;
      };
      const supersede = async (target: string, content: string) => {
        fake.enqueue(extracted(content), chat({ action: 'SUPERSEDE', target_id: target, confidence: 0.9 }));
        const res = await t
          .http()
          .post('/v1/memories/ingest')
          .send({ ...scope, source_site: 'chat', conversation: 'user: (scripted)' });
        expect(res.body).toMatchObject({ memories_stored: 1 });
        return res.body.stored_memory_ids[0] as string;
      };

      const a = await seed('vec:1#My manager is Ana');
      await sleep(30);
      const b = await supersede(a, 'vec:0.9#My manager is Rui');
      await sleep(30);
      const c = await supersede(b, 'vec:0.5#My manager is Eva');
      await sleep(30);
      const d = await seed('vec:0.1#A spare umbrella is in the car');
      await sleep(30);
      await t.http().delete(`/v1/memories/${d}`).query(scope).expect(200);

      const rows: { id: string; created_at: Date; valid_until: Date | null; deleted_at: Date | null }[] = await t.dataSource.query(
        'SELECT id, created_at, valid_until, deleted_at FROM memories WHERE id = ANY($1)',
        [[a, b, c, d]],
      );
      const at = Object.fromEntries(rows.map((r) => [r.id, r]));
      // Superseded rows are valid until their successor's creation.
      expect(at[a].valid_until?.getTime()).toBe(at[b].created_at.getTime());
      expect(at[b].valid_until?.getTime()).toBe(at[c].created_at.getTime());
      expect(at[c].valid_until).toBeNull();

      const mid = (x: Date, y: Date) => new Date((x.getTime() + y.getTime()) / 2).toISOString();
      const instants: [string | undefined, string[]][] = [
        [new Date(at[a].created_at.getTime() - 1000).toISOString(), []],
        [mid(at[a].created_at, at[b].created_at), [a]],
        [mid(at[b].created_at, at[c].created_at), [b]],
        [mid(at[d].created_at, at[d].deleted_at as Date), [c, d]],
        [new Date((at[d].deleted_at as Date).getTime() + 1000).toISOString(), [c]],
        [undefined, [c]],
      ];
      for (const route of ['search', 'search/fast']) {
        for (const [asOf, expected] of instants) {
          const res = await t
            .http()
            .post(`/v1/memories/${route}`)
            .send({ ...scope, query: 'vec:1', limit: 100, ...(asOf ? { as_of: asOf } : {}) });
          expect(res.status).toBe(200);
          const got = (res.body.memories as { id: string }[]).map((m) => m.id).sort();
          expect({ route, asOf, got }).toEqual({ route, asOf, got: [...expected].sort() });
        }
      }
    },
  );

  it('keeps as_of inside the caller’s visibility: another agent never sees a private memory of the past', async () => {
    const user = newUser('asof-private');
    const workspace = newId();
    const [x, y] = [newId(), newId()];
    const res = await t.http().post('/v1/memories/ingest/quick').send({
      user_id: user,
      workspace_id: workspace,
      agent_id: x,
      source_site: 'seed',
      skip_extraction: true,
      conversation: 'vec:1#The private plan of agent X',
      visibility: 'agent_only',
    });
    const id = res.body.stored_memory_ids[0] as string;
    await sleep(30);
    await t.http().delete(`/v1/memories/${id}`).query({ user_id: user, workspace_id: workspace, agent_id: x }).expect(200);
    const [{ created_at }] = await t.dataSource.query('SELECT created_at FROM memories WHERE id = $1', [id]);
    const asOf = new Date(created_at.getTime() + 10).toISOString();
    const own = await t
      .http()
      .post('/v1/memories/search')
      .send({ user_id: user, workspace_id: workspace, agent_id: x, query: 'vec:1', as_of: asOf });
    expect(own.body.memories.map((m: { id: string }) => m.id)).toEqual([id]);
    const other = await t
      .http()
      .post('/v1/memories/search')
      .send({ user_id: user, workspace_id: workspace, agent_id: y, query: 'vec:1', as_of: asOf });
    expect(other.body.memories).toEqual([]);
  });
});
