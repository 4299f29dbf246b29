/**
 * What tracing costs a search: POST /v1/memories/search (hybrid: embedding, vector statement
 * with the lesson check, BM25, ranking) over HTTP with tracing off, then on, in alternating
 * rounds on one embedded database.
 *
 *   npm run bench:tracing
 *   BENCH_MEMORIES=300 BENCH_ROUNDS=4 BENCH_REQUESTS=200 npm run bench:tracing
 *
 * "on" is the real SDK (provider, batch processor, AsyncLocalStorage context, the pg spans)
 * with an exporter that drops the batches, so what is measured is the service's side, not a
 * collector's. Then the cost of one helper call while off, in-process, to show it is nil.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

import { createApp } from '../src/app/bootstrap';
import { inSpan, tracingEnabled } from '../src/common/telemetry/tracing';
import { startTracing, type TracingHandle } from '../src/common/telemetry/tracing-sdk';
import { loadEnv } from '../src/env/env.schema';
import { percentile } from './random';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 200);

/** Counts the spans and drops them. */
class DroppingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    this.spans += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'atrium-bench-tracing-'));
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'error', EMBEDDING_PROVIDER: 'hash', DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0' });
  const exporter = new DroppingExporter();
  const start = async (mode: 'off' | 'on') => {
    const tracing: TracingHandle | null = mode === 'on' ? startTracing({ exporter, serviceName: 'bench' }) : null;
    const app = await createApp(env);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return { base: `http://127.0.0.1:${port}`, close: async () => (await app.close(), await tracing?.shutdown()) };
  };

  const user = `bench-${randomUUID().slice(0, 8)}`;
  {
    const { base, close } = await start('off');
    console.log(`embedded PGlite; seeding ${MEMORIES} memories for one user through /ingest/quick`);
    for (let i = 0; i < MEMORIES; i++) {
      const conversation = `bench memory ${i} about topic ${i % 37} and the colour ${['red', 'green', 'blue'][i % 3]}`;
      const res = await fetch(`${base}/v1/memories/ingest/quick`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: user, source_site: 'bench', skip_extraction: true, conversation }),
      });
      if (!res.ok) throw new Error(`seeding answered ${res.status}`);
    }
    await close();
  }

  const queries = Array.from({ length: 50 }, (_, i) => `what do I know about topic ${i}`);
  const timeSearch = async (base: string, n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}/v1/memories/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: user, query: queries[i % queries.length], limit: 10 }),
      });
      await res.json();
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!res.ok) throw new Error(`search answered ${res.status}`);
    }
    return times;
  };

  const samples: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const { base, close } = await start(mode);
      await timeSearch(base, 30); // warm-up
      samples[mode].push(...(await timeSearch(base, PER_ROUND)));
      await close();
    }
  }
  const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(3)} ms, p95 ${percentile(values, 95).toFixed(3)} ms`;
  const added = percentile(samples.on, 50) - percentile(samples.off, 50);
  console.log(`search (hybrid), tracing off: ${fmt(samples.off)}`);
  console.log(`search (hybrid), tracing on:  ${fmt(samples.on)}`);
  console.log(
    `added at p50: ${added.toFixed(3)} ms (${samples.off.length} requests each, ${ROUNDS} alternating rounds); ` +
      `${(exporter.spans / samples.on.length).toFixed(1)} spans per traced request incl. warm-up`,
  );

  if (tracingEnabled()) throw new Error('tracing still on');
  const calls = 1_000_000;
  const noop = async () => 1;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await inSpan('x', () => ({ a: i }), noop);
  const withHelper = Number(process.hrtime.bigint() - t0) / calls;
  const t1 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await noop();
  const bare = Number(process.hrtime.bigint() - t1) / calls;
  console.log(`one span helper while off: ${(withHelper - bare).toFixed(1)} ns over calling the function directly (${calls} calls)`);
  await rm(dataDir, { recursive: true, force: true });
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
