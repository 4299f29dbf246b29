import { Client } from 'pg';

import { newId, newUser } from '../support/ids';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { call, judge, metricValue, sleep, type Answer } from './support/load';
import { errorLines, startService, type ServiceProcess } from './support/service-process';

/**
 * Defect 2 of issue 10 and the 503 policy, on PostgreSQL with Atrium as a child process:
 * pg_terminate_backend on the service's backends under mixed load used to kill the process.
 */
describe('PostgreSQL backends terminated under load', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  let admin: Client;
  const user = newUser('pgkill');
  const ws = newId();
  const agent = newId();

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startService({ ...db.env, DATABASE_POOL_SIZE: '6' });
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    const database = new URL(db.url as string).pathname.slice(1);
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.end();
    if (service.alive()) await service.stop();
    await db.drop();
  });

  const database = (): string => new URL(db.url as string).pathname.slice(1);
  const terminate = async (): Promise<number> =>
    (
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'atrium'", [
        database(),
      ])
    ).rowCount ?? 0;

  it('keeps serving through repeated terminations: every answer is 2xx, 4xx or 503 with Retry-After, and the process lives', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(service.url, 'POST', '/v1/memories/ingest/quick', {
        user_id: user,
        source_site: 'tests',
        skip_extraction: true,
        conversation: `Seed fact number ${i} about bees`,
      });
      expect(res.status).toBe(200);
      ids.push(...((res.body as { stored_memory_ids: string[] }).stored_memory_ids ?? []));
    }
    const before = await metricValue(service.url, 'atrium_db_unavailable_total');
    const answers: Answer[] = [];
    const deadline = Date.now() + 12_000;
    const requests: [string, string, unknown?][] = [
      ['POST', '/v1/memories/search', { user_id: user, query: 'bees' }],
      ['POST', '/v1/memories/search/fast', { user_id: user, query: 'bees' }],
      ['POST', '/v1/memories/search', { user_id: user, workspace_id: ws, agent_id: agent, query: 'bees' }],
      [
        'POST',
        '/v1/memories/ingest/quick',
        { user_id: user, source_site: 'load', skip_extraction: true, conversation: 'A fact written under fire' },
      ],
      ['GET', `/v1/memories/list?user_id=${user}`],
      ['GET', `/v1/memories/${ids[0]}?user_id=${user}`],
      ['POST', '/v1/memories/expand', { user_id: user, memory_ids: ids }],
      ['GET', `/v1/memories/lessons?user_id=${user}`],
      ['GET', '/health'],
    ];
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; Date.now() < deadline; i++) {
        const [method, path, body] = requests[i % requests.length];
        answers.push(await call(service.url, method, path, body));
      }
    });
    let rounds = 0;
    let killed = 0;
    while (Date.now() < deadline) {
      await sleep(250);
      killed += await terminate();
      rounds++;
    }
    await Promise.all(workers);

    expect(service.alive()).toBe(true);
    const problems = answers.map(judge).filter(Boolean);
    expect(problems).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503 && a.route !== 'GET /health').length;
    const healthDown = answers.filter((a) => a.status === 503 && a.route === 'GET /health').length;
    expect(await metricValue(service.url, 'atrium_db_unavailable_total')).toBe(before + unavailable);
    expect(killed).toBeGreaterThan(0);
    // The pool replaced every dead connection: the service answers normally again.
    await sleep(300);
    const search = await call(service.url, 'POST', '/v1/memories/search', { user_id: user, query: 'bees' });
    expect(search.status).toBe(200);
    expect((await call(service.url, 'GET', '/health')).status).toBe(200);
    expect(errorLines(service.logs)).toEqual([]);
    process.stdout.write(
      `backend terminations: ${rounds} rounds, ${killed} backends terminated, ${answers.length} requests, ` +
        `${answers.filter((a) => a.status === 200).length} ok, ${unavailable} answered 503 (+${healthDown} /health 503), 0 other\n`,
    );
  });

  it('answers 503 with Retry-After while the database refuses connections, and recovers when it is back', async () => {
    await admin.query(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS false`);
    await terminate();
    const down = await call(service.url, 'GET', '/health');
    expect(down.status).toBe(503);
    const search = await call(service.url, 'POST', '/v1/memories/search', { user_id: user, query: 'bees' });
    expect(search.status).toBe(503);
    expect(search.body).toEqual({ error: 'Database unavailable' });
    expect(search.retryAfter).toBe('2');
    const write = await call(service.url, 'POST', '/v1/memories/ingest/quick', {
      user_id: user,
      source_site: 'tests',
      skip_extraction: true,
      conversation: 'written while down',
    });
    expect(write.status).toBe(503);
    // A stream too: the first page is read before the status is sent, so this is a 503 with its
    // JSON body, not a 200 whose stream breaks after the header line.
    const exported = await call(service.url, 'GET', `/v1/memories/export?user_id=${user}`);
    expect(exported).toMatchObject({ status: 503, body: { error: 'Database unavailable' }, retryAfter: '2' });

    await admin.query(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS true`);
    let health = await call(service.url, 'GET', '/health');
    for (let i = 0; i < 20 && health.status !== 200; i++) {
      await sleep(250);
      health = await call(service.url, 'GET', '/health');
    }
    expect(health.status).toBe(200);
    expect((await call(service.url, 'POST', '/v1/memories/search', { user_id: user, query: 'bees' })).status).toBe(200);
    expect(service.alive()).toBe(true);
    expect(await service.stop()).toEqual({ code: 0, signal: null });
  });
});
