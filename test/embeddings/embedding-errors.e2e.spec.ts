import { FakeOpenAiServer } from '../support/fake-openai-server';
import { newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Errors to callers carry no internals (issue 20, finding 10): when the embedding service fails,
 * the caller reads `embedding service unavailable` and a request id; the endpoint URL, the socket
 * error and the upstream's body go to the log only. A fake OpenAI-compatible server on loopback.
 */
describe('embedding failures seen by a caller', () => {
  let t: TestApp;
  let fake: FakeOpenAiServer;
  /** The provider retries 5xx and dropped connections (3 retries): every attempt fails. */
  const failEvery = (reply: Parameters<FakeOpenAiServer['enqueue']>[0]) => fake.enqueue(reply, reply, reply, reply);

  beforeAll(async () => {
    fake = new FakeOpenAiServer({ defaultDimensions: 384 });
    await fake.start();
    t = await createTestApp({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_BASE_URL: fake.baseUrl,
      EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_DIMENSIONS: '384',
      EMBEDDING_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  const UPSTREAM_SECRET = 'upstream says: key sk-live-0000 rejected at 10.0.0.7:8443';
  const search = () =>
    t.http().post('/v1/memories/search').set('X-Request-Id', `emb-${Date.now()}`).send({ user_id: newUser(), query: 'where do I live' });

  function expectNoInternals(res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }) {
    expect(res.body).toEqual({ error: 'embedding service unavailable', request_id: res.headers['x-request-id'] });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(fake.baseUrl);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|ECONN|socket|HTTP \d{3}|sk-live|10\.0\.0\.7/);
  }

  it('answers 503 without the upstream body on a 5xx', async () => {
    failEvery({ path: '/v1/embeddings', status: 500, body: { error: UPSTREAM_SECRET } });
    const res = await search();
    expect(res.status).toBe(503);
    expectNoInternals(res);
  });

  it('answers 502 without the upstream body on a 4xx', async () => {
    fake.enqueue({ path: '/v1/embeddings', status: 401, body: { error: UPSTREAM_SECRET } });
    const res = await search();
    expect(res.status).toBe(502);
    expectNoInternals(res);
  });

  it('answers 503 without the socket error or the endpoint when the connection drops', async () => {
    failEvery({ path: '/v1/embeddings', kind: 'drop' });
    const res = await search();
    expect(res.status).toBe(503);
    expectNoInternals(res);
  });

  it('answers 502 without the body of a malformed answer', async () => {
    fake.enqueue({ path: '/v1/embeddings', kind: 'raw', status: 200, body: `not json ${UPSTREAM_SECRET}` });
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: newUser(), source_site: 'chat', skip_extraction: true, conversation: 'I keep bees.' });
    expect(res.status).toBe(502);
    expectNoInternals(res);
  });
});
