import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Many clients send an unset optional field as JSON null (Python's None, a TypeScript
 * `undefined | null`). A top-level null in a body means "not given": the same answer as
 * leaving the field out, never a filter on NULL and never a 500.
 */
describe('a top-level null in a body is a field not given', () => {
  let t: TestApp;
  const user = newUser('nulls');
  const ws = newId();
  const agent = newId();

  beforeAll(async () => {
    t = await createTestApp();
    for (const text of ['Bees pollinate the orchard in April', 'The orchard has forty apple trees']) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'garden', skip_extraction: true, conversation: text });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['source_site', 'namespace_scope', 'limit', 'as_of', 'reference_time', 'workspace_id', 'agent_id', 'agent_scope'])(
    'search and search/fast with %s: null answer as without it',
    async (field) => {
      for (const route of ['/v1/memories/search', '/v1/memories/search/fast']) {
        const without = await t.http().post(route).send({ user_id: user, query: 'orchard bees' });
        const withNull = await t
          .http()
          .post(route)
          .send({ user_id: user, query: 'orchard bees', [field]: null });
        expect({ status: withNull.status, ids: withNull.body.citations }).toEqual({ status: 200, ids: without.body.citations });
      }
    },
  );

  it('list with a null in the body of a POST elsewhere, and ingest with null optional fields, store as without them', async () => {
    const res = await t.http().post('/v1/memories/ingest/quick').send({
      user_id: user,
      source_site: 'garden',
      skip_extraction: true,
      conversation: 'Plums ripen in August',
      source_url: null,
      namespace: null,
      metadata: null,
      workspace_id: null,
      agent_id: null,
    });
    expect(res.status).toBe(200);
    const [id] = res.body.stored_memory_ids as string[];
    const got = await t.http().get(`/v1/memories/${id}`).query({ user_id: user });
    expect(got.body).toMatchObject({
      content: 'Plums ripen in August',
      source_url: null,
      namespace: null,
      metadata: {},
      workspace_id: null,
    });
  });

  it('workspace writes and reads with a null optional field', async () => {
    const res = await t.http().post('/v1/memories/ingest/quick').send({
      user_id: user,
      workspace_id: ws,
      agent_id: agent,
      source_site: 'garden',
      skip_extraction: true,
      conversation: 'Pears need a pollinator',
      visibility: null,
    });
    expect(res.status).toBe(200);
    const found = await t
      .http()
      .post('/v1/memories/search/fast')
      .send({ user_id: user, workspace_id: ws, agent_id: agent, query: 'pears', agent_scope: null });
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(1);
  });
});
