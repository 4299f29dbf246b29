import { killDatabaseConnections } from '../support/database-faults';
import { newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Defect 2 of issue 10: a connection dropped during a search killed the process (the
 * retrieval's rejection was unhandled while the lesson check was awaited). Now such a request
 * answers 503 with Retry-After, nothing is left unhandled, and the pool replaces the dead
 * connections so the next requests succeed.
 */
describe('database connections killed under the service', () => {
  let t: TestApp;
  const user = newUser('dbfault');
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeAll(async () => {
    t = await createTestApp();
    process.on('unhandledRejection', onUnhandled);
    for (const text of ['I keep bees in Lisbon', 'My bees make orange honey', 'I sell honey at the market']) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'tests', skip_extraction: true, conversation: text });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t.close();
  });

  const unavailableCount = async (): Promise<number> => {
    const text = (await t.http().get('/metrics')).text;
    return Number(/^atrium_db_unavailable_total (\d+)/m.exec(text)?.[1] ?? 'NaN');
  };

  it('replaces connections killed while idle: the next searches and /health succeed', async () => {
    await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
    expect(await killDatabaseConnections(t.db, t.dataSource)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 3; i++) {
      const res = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
      expect([200, 503]).toContain(res.status);
    }
    const res = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect((await t.http().get('/health')).status).toBe(200);
  });

  it('searches racing connection kills answer 200 or 503 with Retry-After, never 500, and nothing is left unhandled', async () => {
    const before = await unavailableCount();
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const requests = Array.from({ length: 6 }, (_, i) =>
        t
          .http()
          .post(i % 2 ? '/v1/memories/search' : '/v1/memories/search/fast')
          .send({ user_id: user, query: 'honey bees' })
          .then((res) => {
            statuses.push(res.status);
            if (res.status === 503) {
              expect(res.headers['retry-after']).toBe('2');
              expect(res.body).toEqual({ error: 'Database unavailable' });
            }
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, round * 3));
      await killDatabaseConnections(t.db, t.dataSource);
      await Promise.all(requests);
    }
    expect(statuses).toHaveLength(48);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(await unavailableCount()).toBe(before + statuses.filter((s) => s === 503).length);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    const after = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'bees' });
    expect(after.status).toBe(200);
  });
});
