import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

type Case = [name: string, method: 'get' | 'post' | 'delete' | 'patch', path: string, payload: Record<string, unknown>, message: RegExp];

const user = newUser('bad');
const ws = newId();
const agent = newId();
const id = newId();
const W = { user_id: user, workspace_id: ws, agent_id: agent };
const ingest = { user_id: user, source_site: 'tests', conversation: 'I enjoy climbing on weekends' };

const cases: Case[] = [
  // scope fields, on every kind of route
  ['list without user_id', 'get', '/v1/memories/list', {}, /^user_id \(string\) is required$/],
  ['search with numeric user_id', 'post', '/v1/memories/search', { user_id: 5, query: 'x' }, /^user_id \(string\) is required$/],
  [
    'ingest with a 257-char user_id',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, user_id: 'u'.repeat(257) },
    /^user_id must be at most 256 characters$/,
  ],
  [
    'list with a malformed workspace_id',
    'get',
    '/v1/memories/list',
    { user_id: user, workspace_id: 'w1', agent_id: agent },
    /^workspace_id must be a valid UUID$/,
  ],
  [
    'get with a malformed agent_id',
    'get',
    `/v1/memories/${id}`,
    { user_id: user, workspace_id: ws, agent_id: 'x' },
    /^agent_id must be a valid UUID$/,
  ],
  [
    'search with a bad agent_scope',
    'post',
    '/v1/memories/search',
    { ...W, query: 'x', agent_scope: 'everybody' },
    /^agent_scope must be all, self, others/,
  ],
  [
    'search with agent_scope in user scope',
    'post',
    '/v1/memories/search',
    { user_id: user, query: 'x', agent_scope: 'self' },
    /^agent_scope requires workspace_id$/,
  ],
  ['list with agent_scope as a list of junk', 'get', '/v1/memories/list', { ...W, agent_scope: 'a,b' }, /^agent_scope must be/],
  // ids
  ['get with a non-UUID id', 'get', '/v1/memories/123', { user_id: user }, /^id must be a valid UUID$/],
  ['delete with a non-UUID id', 'delete', '/v1/memories/abc', { user_id: user }, /^id must be a valid UUID$/],
  ['patch with a non-UUID id', 'patch', '/v1/memories/abc', { ...W, visibility: 'workspace' }, /^id must be a valid UUID$/],
  ['revoke with a non-UUID grantee', 'delete', `/v1/memories/${id}/grants/nope`, W, /^grantee_agent_id must be a valid UUID$/],
  [
    'grant with a non-UUID grantee',
    'post',
    `/v1/memories/${id}/grants`,
    { ...W, grantee_agent_id: 'nope' },
    /^grantee_agent_id must be a valid UUID$/,
  ],
  // list paging
  ['list with limit 0', 'get', '/v1/memories/list', { user_id: user, limit: '0' }, /^limit must be between 1 and 100$/],
  ['list with limit 101', 'get', '/v1/memories/list', { user_id: user, limit: '101' }, /^limit must be between 1 and 100$/],
  ['list with limit abc', 'get', '/v1/memories/list', { user_id: user, limit: 'abc' }, /^limit must be an integer$/],
  ['list with limit 2.5', 'get', '/v1/memories/list', { user_id: user, limit: '2.5' }, /^limit must be an integer$/],
  ['list with negative offset', 'get', '/v1/memories/list', { user_id: user, offset: '-1' }, /^offset must be 0 or more$/],
  ['list with offset 1e3', 'get', '/v1/memories/list', { user_id: user, offset: '1e3' }, /^offset must be an integer$/],
  [
    'list with a malformed episode_id',
    'get',
    '/v1/memories/list',
    { user_id: user, episode_id: 'ep-1' },
    /^episode_id must be a valid UUID$/,
  ],
  ['list with an unknown parameter', 'get', '/v1/memories/list', { user_id: user, colour: 'red' }, /colour should not exist/],
  // search
  ['search without query', 'post', '/v1/memories/search', { user_id: user }, /^query must be/],
  ['search with an empty query', 'post', '/v1/memories/search', { user_id: user, query: '' }, /^query must be 1 to 10000 characters$/],
  [
    'search with a 10001-char query',
    'post',
    '/v1/memories/search/fast',
    { user_id: user, query: 'q'.repeat(10001) },
    /^query must be 1 to 10000 characters$/,
  ],
  ['search with a numeric query', 'post', '/v1/memories/search', { user_id: user, query: 7 }, /^query must be a string$/],
  ['search with limit 0', 'post', '/v1/memories/search', { user_id: user, query: 'x', limit: 0 }, /^limit must be between 1 and 100$/],
  [
    'search with limit 1000',
    'post',
    '/v1/memories/search/fast',
    { user_id: user, query: 'x', limit: 1000 },
    /^limit must be between 1 and 100$/,
  ],
  [
    'search with a non-ISO as_of',
    'post',
    '/v1/memories/search',
    { user_id: user, query: 'x', as_of: 'yesterday' },
    /^as_of must be an RFC 3339 timestamp/,
  ],
  [
    'search with a bad namespace_scope',
    'post',
    '/v1/memories/search',
    { user_id: user, query: 'x', namespace_scope: [1] },
    /^namespace_scope must be a string or an array/,
  ],
  // expand
  ['expand without memory_ids', 'post', '/v1/memories/expand', { user_id: user }, /^memory_ids must/],
  ['expand with an empty list', 'post', '/v1/memories/expand', { user_id: user, memory_ids: [] }, /^memory_ids must hold 1 to 100 ids$/],
  [
    'expand with 101 ids',
    'post',
    '/v1/memories/expand',
    { user_id: user, memory_ids: Array.from({ length: 101 }, newId) },
    /^memory_ids must hold 1 to 100 ids$/,
  ],
  [
    'expand with a malformed id',
    'post',
    '/v1/memories/expand',
    { user_id: user, memory_ids: ['x'] },
    /^memory_ids must contain only valid UUIDs$/,
  ],
  [
    'expand with a string instead of a list',
    'post',
    '/v1/memories/expand',
    { user_id: user, memory_ids: id },
    /^memory_ids must be an array/,
  ],
  // ingest
  ['ingest without conversation', 'post', '/v1/memories/ingest/quick', { user_id: user, source_site: 's' }, /^conversation must be/],
  [
    'ingest with an empty conversation',
    'post',
    '/v1/memories/ingest',
    { ...ingest, conversation: '' },
    /^conversation must be 1 to 100000 characters$/,
  ],
  [
    'ingest with a 100001-char conversation',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, conversation: 'a'.repeat(100001) },
    /^conversation must be 1 to 100000 characters$/,
  ],
  [
    'ingest without source_site',
    'post',
    '/v1/memories/ingest/quick',
    { user_id: user, conversation: 'I like tea' },
    /^source_site must be/,
  ],
  [
    'ingest with an empty source_site',
    'post',
    '/v1/memories/ingest',
    { ...ingest, source_site: '' },
    /^source_site must be 1 to 512 characters$/,
  ],
  [
    'ingest with an unknown visibility',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, ...W, visibility: 'public' },
    /^visibility must be one of workspace, agent_only, restricted$/,
  ],
  [
    'ingest with metadata as a list',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, metadata: [1] },
    /^metadata must be a JSON object of at most 32 KB$/,
  ],
  [
    'ingest with 33 KB of metadata',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, metadata: { blob: 'x'.repeat(33 * 1024) } },
    /^metadata must be a JSON object of at most 32 KB$/,
  ],
  [
    'ingest with skip_extraction "yes"',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, skip_extraction: 'yes' },
    /^skip_extraction must be a boolean$/,
  ],
  [
    'ingest with skip_extraction on /ingest',
    'post',
    '/v1/memories/ingest',
    { ...ingest, skip_extraction: true },
    /skip_extraction should not exist/,
  ],
  [
    'ingest with a malformed agent_scope',
    'post',
    '/v1/memories/ingest/quick',
    { ...ingest, ...W, agent_scope: 'everyone' },
    /^agent_scope must be all, self, others/,
  ],
  ['ingest with an unknown field', 'post', '/v1/memories/ingest/quick', { ...ingest, importance: 2 }, /importance should not exist/],
  // visibility change and grants
  ['patch with an unknown visibility', 'patch', `/v1/memories/${id}`, { ...W, visibility: 'everyone' }, /^visibility must be one of/],
  ['patch with nothing to change', 'patch', `/v1/memories/${id}`, W, /^one of visibility, content, metadata or expires_at is required/],
  ['patch with an expiry that is not a timestamp', 'patch', `/v1/memories/${id}`, { ...W, expires_at: 'soon' }, /^expires_at must be/],
  ['patch with empty content', 'patch', `/v1/memories/${id}`, { ...W, content: '' }, /^content must be 1 to 100000 characters/],
  ['patch in user scope', 'patch', `/v1/memories/${id}`, { user_id: user, visibility: 'workspace' }, /^workspace_id is required/],
  ['grant in user scope', 'post', `/v1/memories/${id}/grants`, { user_id: user, grantee_agent_id: agent }, /^workspace_id is required/],
];

describe('bad input on memory routes', () => {
  let t: TestApp;
  let rowsBefore: number;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ ...ingest, skip_extraction: true, conversation: 'Seed row so counts are not trivially zero' });
    expect(res.status).toBe(200);
    rowsBefore = await count();
  });
  afterAll(async () => {
    await t.close();
  });
  const count = async (): Promise<number> =>
    Number(
      (
        await t.dataSource.query(
          'SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM episodes) + (SELECT count(*) FROM memory_visibility_grants) AS n',
        )
      )[0].n,
    );

  it.each(cases)('%s: 400 naming the field, nothing written', async (_name, method, path, payload, message) => {
    const req = t.http()[method](path);
    const res = method === 'get' || method === 'delete' ? await req.query(payload as Record<string, string>) : await req.send(payload);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(message);
    expect(await count()).toBe(rowsBefore);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await t.http().post('/v1/memories/search').set('Content-Type', 'application/json').send('"just a string"');
    expect(res.status).toBe(400);
    expect(res.body.error).toBeDefined();
  });
});
