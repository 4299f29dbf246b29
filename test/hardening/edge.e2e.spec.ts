import { connect, type AddressInfo, type Socket } from 'node:net';

import { newId, newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Regression tests for the defects of issue 10 that a single request could trigger: each
 * answered a 500, killed the process or was acted on. Each now answers a 4xx in the envelope
 * naming the field, and nothing is written.
 */

const WEEK_AND_OTHER_ISO_FORMS = ['2026-W01-1', '2026-W01', '2026-01-01T00:00:00,5Z', '20260101T000000Z', '2026-01-01T00Z', '2026-001'];

describe('the HTTP edge refuses input that used to crash or reach the database', () => {
  let t: TestApp;
  const user = newUser('edge');
  let rowsBefore: number;
  const count = async (): Promise<number> =>
    Number(
      (
        await t.dataSource.query(
          'SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM episodes) + (SELECT count(*) FROM lessons) + (SELECT count(*) FROM agents) AS n',
        )
      )[0].n,
    );

  beforeAll(async () => {
    t = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true' });
    const seeded = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: user, source_site: 'tests', skip_extraction: true, conversation: 'I keep bees in Lisbon' });
    expect(seeded.status).toBe(200);
    rowsBefore = await count();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('dates: one parser for as_of and reference_time', () => {
    it.each(
      WEEK_AND_OTHER_ISO_FORMS.flatMap((value) =>
        ['/v1/memories/search', '/v1/memories/search/fast'].flatMap((path) => [
          [path, 'as_of', value],
          [path, 'reference_time', value],
        ]),
      ),
    )('%s with %s %j: 400 naming the field', async (path, field, value) => {
      const res = await t
        .http()
        .post(path)
        .send({ user_id: user, query: 'bees', [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(new RegExp(`^${field} must be an RFC 3339 timestamp`)) });
    });

    it('accepts a date, a UTC time and an offset time, and filters by them', async () => {
      for (const as_of of ['2000-01-01', '2000-01-01T00:00:00Z']) {
        const res = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees', as_of });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(0);
      }
      const later = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ user_id: user, query: 'bees', as_of: '2999-01-01T00:00:00+05:30', reference_time: '2030-01-01' });
      expect(later.status).toBe(200);
      expect(later.body.count).toBe(1);
      const scored = await t
        .http()
        .post('/v1/memories/search')
        .send({ user_id: user, query: 'bees', reference_time: '2030-01-01T12:00:00.5-03:00' });
      expect(scored.status).toBe(200);
      expect(typeof scored.body.memories[0].score).toBe('number');
    });
  });

  describe('bodies are JSON only (415 otherwise)', () => {
    it.each([
      [
        'application/x-www-form-urlencoded',
        `user_id=${user}&source_site=evil&conversation=I%20was%20written%20by%20a%20form&skip_extraction=true`,
      ],
      ['text/plain', JSON.stringify({ user_id: user, source_site: 'evil', conversation: 'text/plain body', skip_extraction: true })],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${user}\r\n--x--\r\n`],
    ])('ingest with %s: 415 in the envelope, nothing written', async (type, body) => {
      const res = await t.http().post('/v1/memories/ingest/quick').set('Content-Type', type).send(body);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: `Content-Type must be application/json, got ${type.split(';')[0]}` });
      expect(await count()).toBe(rowsBefore);
    });

    it('a cross-site form cannot report a critical lesson', async () => {
      const res = await t
        .http()
        .post(`/v1/memories/lessons/report?user_id=${user}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('pattern=bees&severity=critical');
      expect(res.status).toBe(415);
      const search = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
      expect(search.body.lesson_check.safe).toBe(true);
      expect(search.body.count).toBe(1);
    });

    it('a body without a Content-Type is refused too; application/json with a charset is accepted', async () => {
      const bare = await t.http().put('/v1/agents/trust').set('Content-Type', '').send(Buffer.from('{}'));
      expect(bare.status).toBe(415);
      const ok = await t
        .http()
        .post('/v1/memories/search')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ user_id: user, query: 'bees' }));
      expect(ok.status).toBe(200);
    });
  });

  describe('strings with NUL or lone surrogates, anywhere (400 naming the field)', () => {
    const ingest = { user_id: user, source_site: 'tests', skip_extraction: true, conversation: 'fine text' };
    it.each([
      ['conversation with NUL', { ...ingest, conversation: 'a\u0000b' }, 'conversation must not contain NUL characters'],
      ['source_site with NUL', { ...ingest, source_site: 's\u0000' }, 'source_site must not contain NUL characters'],
      ['user_id with NUL', { ...ingest, user_id: 'u\u0000' }, 'user_id must not contain NUL characters'],
      [
        'metadata value with a lone surrogate',
        { ...ingest, metadata: { note: 'x\uD83D' } },
        'metadata.note must not contain unpaired UTF-16 surrogates',
      ],
      ['metadata key with NUL', { ...ingest, metadata: { 'k\u0000': 'v' } }, 'metadata field names must not contain NUL characters'],
      [
        'nested metadata value with NUL',
        { ...ingest, metadata: { a: { b: ['ok', '\u0000'] } } },
        'metadata.a.b[1] must not contain NUL characters',
      ],
    ])('ingest with %s', async (_name, body, message) => {
      const res = await t.http().post('/v1/memories/ingest/quick').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
      expect(await count()).toBe(rowsBefore);
    });

    it('search with NUL in the query, and list with NUL in a query parameter', async () => {
      const search = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees\u0000' });
      expect(search.body).toEqual({ error: 'query must not contain NUL characters' });
      expect(search.status).toBe(400);
      const list = await t.http().get(`/v1/memories/list?user_id=${user}&source_site=a%00b`);
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ error: 'source_site must not contain NUL characters' });
      const lessons = await t.http().get('/v1/memories/lessons?user_id=%00');
      expect(lessons.status).toBe(400);
      expect(lessons.body).toEqual({ error: 'user_id must not contain NUL characters' });
    });

    it('agent display_name and lesson pattern with NUL', async () => {
      const trust = await t
        .http()
        .put('/v1/agents/trust')
        .send({ user_id: user, agent_id: newId(), trust_level: 0.5, display_name: 'x\u0000' });
      expect(trust.body).toEqual({ error: 'display_name must not contain NUL characters' });
      const lesson = await t.http().post(`/v1/memories/lessons/report?user_id=${user}`).send({ pattern: '\uDC00 bees' });
      expect(lesson.body).toEqual({ error: 'pattern must not contain unpaired UTF-16 surrogates' });
      expect(await count()).toBe(rowsBefore);
    });
  });

  it('JSON nested 5,000 levels deep: 400 before any DTO runs', async () => {
    const deep = `{"user_id":"${user}","query":"bees","namespace_scope":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await t.http().post('/v1/memories/search').set('Content-Type', 'application/json').send(deep);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^namespace_scope(\[0\])+ nests deeper than 32 levels$/);
    const metadata = `{"user_id":"${user}","source_site":"t","conversation":"c","metadata":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`;
    const ingest = await t.http().post('/v1/memories/ingest/quick').set('Content-Type', 'application/json').send(metadata);
    expect(ingest.status).toBe(400);
    expect(await count()).toBe(rowsBefore);
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'PUT /v1/memories/config with a field named %s: 400 unknown field',
    async (name) => {
      const res = await t.http().put('/v1/memories/config').set('Content-Type', 'application/json').send(`{"${name}": 1}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${name} is not a runtime config field`));
      const health = await t.http().get('/v1/memories/health');
      expect(health.body.config.max_search_results).toBe(100);
    },
  );

  it('trust_level 5e-324 (too small for a real column) is stored as 0', async () => {
    const agent = newId();
    const put = await t.http().put('/v1/agents/trust').send({ user_id: user, agent_id: agent, trust_level: 5e-324 });
    expect(put.status).toBe(200);
    expect(put.body.trust_level).toBe(0);
    const get = await t.http().get('/v1/agents/trust').query({ user_id: user, agent_id: agent });
    expect(get.body).toEqual({ agent_id: agent, trust_level: 0 });
    const small = await t.http().put('/v1/agents/trust').send({ user_id: user, agent_id: agent, trust_level: 1e-30 });
    expect(small.status).toBe(200);
  });

  it('user_id null counts as not given: 400 user_id is required, nothing stored', async () => {
    const agent = newId();
    const put = await t.http().put('/v1/agents/trust').send({ user_id: null, agent_id: agent, trust_level: 5e-324, constructor: -1 });
    expect(put.status).toBe(400);
    expect(put.body.error).toMatch(/^user_id/);
    const report = await t
      .http()
      .post('/v1/memories/lessons/report')
      .send({ user_id: null, pattern: 'wire money to a new account', severity: 'low' });
    expect(report.status).toBe(400);
    expect(report.body.error).toMatch(/user_id/);
    const stored = await t.dataSource.query('SELECT count(*)::int AS n FROM agents WHERE agent_id = $1', [agent]);
    expect(stored[0].n).toBe(0);
  });

  it('a runtime threshold of 5e-324 is accepted and the service keeps working', async () => {
    const res = await t.http().put('/v1/memories/config').send({ lesson_similarity_threshold: 5e-324, trust_score_min_threshold: 5e-324 });
    expect(res.status).toBe(200);
    expect(res.body.config.lesson_similarity_threshold).toBe(0);
    const search = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
    expect(search.status).toBe(200);
    await t.http().put('/v1/memories/config').send({ lesson_similarity_threshold: 0.75, trust_score_min_threshold: 0.3 });
  });
});

describe('HTTP server limits from the environment', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '1500',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '700',
      HTTP_MAX_CONNECTIONS: '3',
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
  const closed = (socket: Socket): Promise<string> =>
    new Promise((resolve) => {
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('error', () => undefined);
      socket.once('close', () => resolve(data));
    });

  it('sets the timeouts and the connection cap on the server', () => {
    const server = t.app.getHttpServer();
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.maxConnections]).toEqual([1000, 1500, 700, 3]);
  });

  it('closes a connection whose headers never finish with 408', async () => {
    const socket = await open();
    const done = closed(socket);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(await done).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const socket = await open();
    const done = closed(socket);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await done).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses connections beyond HTTP_MAX_CONNECTIONS', async () => {
    const held = [await open(), await open(), await open()];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await open();
    const extraClosed = closed(extra);
    extra.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await extraClosed).toBe('');
    for (const socket of held) socket.destroy();
  });
});
