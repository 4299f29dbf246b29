import { newUser } from '../support/ids';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { call, sleep } from './support/load';
import { startService, type ServiceProcess } from './support/service-process';

/**
 * Durability of the embedded database: the process that holds it is SIGKILLed in the middle
 * of a burst of writes, restarted on the same DATA_DIR, and every write that was acknowledged
 * (200 with stored ids) before the kill must be there. Writes cut by the kill may or may not
 * have landed; the service must start again either way.
 */
describe('SIGKILL of the embedded database mid-burst', () => {
  let db: TestDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    if (service?.alive()) service.child.kill('SIGKILL');
    await db.drop();
  });

  it('finds every acknowledged write after each of three kills and restarts', async () => {
    const user = newUser('sigkill');
    const acknowledged: string[] = [];
    let cut = 0;
    for (let round = 0; round < 3; round++) {
      service = await startService(db.env);
      const current = service;
      let stop = false;
      const writers = Array.from({ length: 6 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const answer = await call(current.url, 'POST', '/v1/memories/ingest/quick', {
            user_id: user,
            source_site: 'tests',
            skip_extraction: true,
            conversation: `Round ${round} writer ${w} fact ${i}: the hive count is ${i * 7 + w}`,
          });
          if (answer.status === 200) acknowledged.push(...(answer.body as { stored_memory_ids: string[] }).stored_memory_ids);
          else if (answer.status === 'network-error') {
            cut++;
            return;
          } else throw new Error(`write answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        }
      });
      // Kill mid-burst once this round has at least 10 acknowledged writes (the writers keep going).
      const target = acknowledged.length + 10;
      for (let waited = 0; acknowledged.length < target && waited < 60_000; waited += 50) await sleep(50);
      current.child.kill('SIGKILL');
      const exit = await current.exited;
      stop = true;
      await Promise.all(writers);
      expect(exit.signal).toBe('SIGKILL');
    }

    service = await startService(db.env);
    const missing: string[] = [];
    for (let i = 0; i < acknowledged.length; i += 100) {
      const ids = acknowledged.slice(i, i + 100);
      const res = await call(service.url, 'POST', '/v1/memories/expand', { user_id: user, memory_ids: ids });
      expect(res.status).toBe(200);
      const found = new Set((res.body as { memories: { id: string }[] }).memories.map((m) => m.id));
      missing.push(...ids.filter((id) => !found.has(id)));
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    expect(missing).toEqual([]);
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    process.stdout.write(
      `sigkill: 3 kills, ${acknowledged.length} acknowledged writes, 0 missing after restart, ${cut} writes cut by the kill\n`,
    );
  });
});
