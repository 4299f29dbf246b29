import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import { ADVERSARIAL_UNITS, repeatUnit } from '../../src/lessons/sanitizer/pathological-inputs';
import { newUser } from '../support/ids';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { call, judge, sleep } from './support/load';
import { errorLines, startService, tail, type ServiceProcess } from './support/service-process';

/**
 * The event loop never waits for the write gate (issue 20): a burst of 20 concurrent worst-case
 * 100,000-character writes (the families that made the old gate quadratic, U+FDFA that NFKC
 * expands 18-fold) while /health is polled. Every write is answered (2xx, or the 4xx refusal,
 * never a 5xx or a dropped connection) within 2 s, and /health keeps a median under 50 ms; the
 * 99th percentile is printed with the rest of the figures (docs/security.md, "Bounded time").
 *
 * Both bounds are wall-clock times, which a machine running more threads than it has cores
 * stretches for every process alike (on a shared 2-core machine at load 17, even 20 bodies of
 * 100k characters answered 400 by validation kept /health above 50 ms). So they are multiplied by
 * the oversubscription, load average over cores, when that is above 1; the factor is printed.
 * PostgreSQL only: the embedded database is WebAssembly on the event loop by design, so there a
 * burst of 100k-character inserts measures the database, not the gate.
 */
const BURST = 20;
const HEALTH_MEDIAN_MS = 50;
const WRITE_MS = 2_000;

const WORST = ['digit space', 'digit dot', 'dollar space', 'letter dot letter dash', 'IP list', 'mixed separators', 'zero-width spaces'];
const WORST_UNITS = ADVERSARIAL_UNITS.filter(([name]) => WORST.includes(name) || name.startsWith('U+FDFA')).map(([, unit]) => unit);

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

describe('a burst of worst-case writes', () => {
  let db: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startService({ ...db.env });
  });
  afterAll(async () => {
    if (service?.alive()) await service.stop();
    await db?.drop();
  });

  it(`answers each of ${BURST} writes within ${WRITE_MS} ms while /health stays under ${HEALTH_MEDIAN_MS} ms (median)`, async () => {
    const user = newUser('gate-burst');
    // Warm up: the pool's workers start on the first long input, and the first writes of each
    // kind compile their code; neither is what the burst measures.
    const warm = await Promise.all(
      WORST_UNITS.slice(0, 4).map((unit, i) =>
        call(service.url, 'POST', '/v1/memories/ingest/quick', {
          user_id: user,
          source_site: 'tests',
          skip_extraction: i % 2 === 0,
          conversation: repeatUnit(unit, 100_000),
        }),
      ),
    );
    for (const answer of warm) expect(judge(answer)).toBeUndefined();
    await sleep(2_000);

    const health: number[] = [];
    let bursting = true;
    const poller = (async () => {
      while (bursting) {
        const start = performance.now();
        const answer = await call(service.url, 'GET', '/health');
        health.push(performance.now() - start);
        expect(answer.status).toBe(200);
        await sleep(5);
      }
    })();
    await sleep(100);

    const writes = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const unit = WORST_UNITS[i % WORST_UNITS.length];
        const start = performance.now();
        const answer = await call(service.url, 'POST', '/v1/memories/ingest/quick', {
          user_id: user,
          source_site: 'tests',
          skip_extraction: i % 2 === 0,
          conversation: repeatUnit(unit, 100_000),
        });
        return { unit, ms: performance.now() - start, answer };
      }),
    );
    await sleep(100);
    bursting = false;
    await poller;

    const oversubscription = Math.max(1, loadavg()[0] / availableParallelism());
    const sorted = [...health].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const slowest = Math.max(...writes.map((write) => write.ms));
    const statuses = writes.map((write) => write.answer.status);
    console.log(
      `gate burst: ${BURST} writes of 100,000 characters, slowest answered in ${slowest.toFixed(0)} ms ` +
        `(statuses ${[...new Set(statuses)].join(', ')}); /health over ${health.length} polls: ` +
        `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms; ` +
        `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores (bounds x${oversubscription.toFixed(1)})`,
    );

    for (const write of writes) {
      expect(judge(write.answer)).toBeUndefined();
      expect(typeof write.answer.status === 'number' && write.answer.status < 500).toBe(true);
    }
    expect(slowest).toBeLessThan(WRITE_MS * oversubscription);
    expect(p50).toBeLessThan(HEALTH_MEDIAN_MS * oversubscription);
    expect(errorLines(service.logs)).toEqual([]);
    expect(service.alive()).toBe(true);
  }, 120_000);

  it('exits 0 on SIGTERM with the pool open', async () => {
    const result = await service.stop();
    expect({ ...result, logs: result.code === 0 ? '' : tail(service.logs) }).toEqual({ code: 0, signal: null, logs: '' });
  }, 60_000);
});
