import { Client } from 'pg';

import { ADMIN_TOKEN } from '../support/api-keys';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { fuzz, FUZZ_RUNS, processFaults, seedWorld } from './support/fuzz-run';
import { call, sleep } from './support/load';
import { errorLines, startService, type ServiceProcess } from './support/service-process';

/**
 * The same fuzzer while the service's PostgreSQL backends are terminated every 300 ms: the
 * injected database faults may turn answers into 503s, never into 500s or dropped connections.
 */
describe('fuzzed requests while PostgreSQL backends are terminated', () => {
  let db: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startService({
      ...db.env,
      CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true',
      ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN,
      WEBHOOK_POLL_INTERVAL_MS: '0',
    });
  });
  afterAll(async () => {
    if (service.alive()) service.child.kill('SIGKILL');
    await db.drop();
  });

  it(`answers ${FUZZ_RUNS} hostile requests under backend terminations with 2xx, 4xx or 503, and recovers`, async () => {
    const world = await seedWorld(service);
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    let stop = false;
    let killed = 0;
    const terminator = (async () => {
      while (!stop) {
        await sleep(300);
        const res = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'atrium'",
          [new URL(db.url as string).pathname.slice(1)],
        );
        killed += res.rowCount ?? 0;
      }
    })();
    let statuses: Map<string, number>;
    try {
      statuses = await fuzz(service, world, FUZZ_RUNS);
    } finally {
      stop = true;
      await terminator;
      await admin.end();
    }
    expect(service.alive()).toBe(true);
    expect(killed).toBeGreaterThan(0);
    await sleep(300);
    expect((await call(service.url, 'GET', '/health')).status).toBe(200);
    expect(await processFaults(service)).toBe(0);
    expect(errorLines(service.logs)).toEqual([]);
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    process.stdout.write(
      `fuzz under terminations: ${killed} backends terminated, ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
  });
});
