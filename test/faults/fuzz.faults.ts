import { ADMIN_TOKEN } from '../support/api-keys';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { fuzz, FUZZ_RUNS, processFaults, seedWorld } from './support/fuzz-run';
import { call } from './support/load';
import { errorLines, startService, type ServiceProcess } from './support/service-process';

/**
 * The property fuzzer over every route's DTOs, on both databases, against Atrium as a child
 * process: no input may produce a 500, drop a connection or end the process.
 */
describe('fuzzed requests on every route', () => {
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

  it(`answers ${FUZZ_RUNS} hostile requests with 2xx, 4xx in the envelope or 503, and is alive and healthy at the end`, async () => {
    const world = await seedWorld(service);
    const statuses = await fuzz(service, world, FUZZ_RUNS);
    expect(service.alive()).toBe(true);
    expect((await call(service.url, 'GET', '/health')).status).toBe(200);
    expect(await processFaults(service)).toBe(0);
    expect(errorLines(service.logs)).toEqual([]);
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    process.stdout.write(`fuzz (${db.url ? 'postgres' : 'embedded'}): ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
  });
});
