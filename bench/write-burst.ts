/**
 * A burst of worst-case writes against a real service (issue 20): 20 concurrent 100,000-character
 * /ingest/quick writes of the families that once made the gate quadratic (and U+FDFA, which NFKC
 * expands 18-fold), half verbatim and half through extraction, while `/health` (which asks
 * PostgreSQL `SELECT 1`) and `/v1/memories/health` (which touches no database) are polled in
 * turn every 5 ms. Prints, per round, the slowest write and both polls' p50, p99 and maximum, then
 * the medians over the rounds. Each side of an A/B gets its own process and fresh database, and
 * the rounds alternate between the sides, so the machine's noise falls on both.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:burst
 *   BENCH_ROUNDS=3 (default); BENCH_MAIN_A=/path/to/other/dist/src/main.js compares another build
 *   (the B side is this build); BENCH_ENV_A / BENCH_ENV_B: NAME=value,... for one side's service
 *   (e.g. BENCH_ENV_A=WRITE_GATE_WORKER_NICE=0).
 *
 * The figures are wall times on whatever else the machine runs: quote medians, and the load.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import { Client } from 'pg';

import { ADVERSARIAL_UNITS, repeatUnit } from '../src/lessons/sanitizer/pathological-inputs';
import { parseEnvList } from './args';
import { median, percentile } from './load';
import { startServer, type RunningServer } from './server';

const BURST = 20;
const LENGTH = 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORST = ['digit space', 'digit dot', 'dollar space', 'letter dot letter dash', 'IP list', 'mixed separators', 'zero-width spaces'];
const UNITS = ADVERSARIAL_UNITS.filter(([name]) => WORST.includes(name) || name.startsWith('U+FDFA')).map(([, unit]) => unit);

interface Round {
  slowestMs: number;
  statuses: number[];
  health: { p50: number; p99: number; max: number; n: number };
  noDatabase: { p50: number; p99: number; max: number; n: number };
  load: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function summary(times: number[]): Round['health'] {
  const sorted = Float64Array.from(times).sort();
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN, n: sorted.length };
}

async function write(url: string, user: string, unit: string, verbatim: boolean): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const res = await fetch(`${url}/v1/memories/ingest/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: user, source_site: 'bench', skip_extraction: verbatim, conversation: repeatUnit(unit, LENGTH) }),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status };
}

async function round(server: RunningServer, n: number): Promise<Round> {
  const user = `burst-${n}-${Date.now()}`;
  // Warm-up: the workers start on the first long input and compile each path on first use.
  for (const unit of UNITS.slice(0, 4)) await Promise.all([write(server.url, user, unit, true), write(server.url, user, unit, false)]);
  await sleep(500);
  const health: number[] = [];
  const noDatabase: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      let start = performance.now();
      await (await fetch(`${server.url}/health`)).arrayBuffer();
      health.push(performance.now() - start);
      start = performance.now();
      await (await fetch(`${server.url}/v1/memories/health`)).arrayBuffer();
      noDatabase.push(performance.now() - start);
      await sleep(5);
    }
  })();
  await sleep(100);
  const writes = await Promise.all(Array.from({ length: BURST }, (_, i) => write(server.url, user, UNITS[i % UNITS.length], i % 2 === 0)));
  await sleep(100);
  polling = false;
  await poller;
  return {
    slowestMs: Math.max(...writes.map((w) => w.ms)),
    statuses: [...new Set(writes.map((w) => w.status))],
    health: summary(health),
    noDatabase: summary(noDatabase),
    load: loadavg()[0],
  };
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL (a PostgreSQL server) is required');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  const sides = [
    ...(process.env.BENCH_MAIN_A || process.env.BENCH_ENV_A
      ? [{ label: 'A', main: process.env.BENCH_MAIN_A, env: parseEnvList(process.env.BENCH_ENV_A) }]
      : []),
    { label: 'B', main: undefined as string | undefined, env: parseEnvList(process.env.BENCH_ENV_B) },
  ];
  const started: Array<{ label: string; server: RunningServer; database: string; rounds: Round[] }> = [];
  try {
    for (const side of sides) {
      const database = `atrium_bench_burst_${Date.now()}_${side.label.toLowerCase()}`;
      await admin.query(`CREATE DATABASE ${database}`);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      const server = await startServer({ DATABASE_URL: url.toString(), ...side.env }, side.main);
      started.push({ label: side.label, server, database, rounds: [] });
    }
    console.log(`${BURST} concurrent writes of ${LENGTH.toLocaleString('en-US')} characters per round; ${ROUNDS} rounds per side`);
    for (let n = 0; n < ROUNDS; n++) {
      for (const side of n % 2 ? [...started].reverse() : started) {
        const r = await round(side.server, n);
        side.rounds.push(r);
        console.log(
          `${side.label} round ${n + 1}: slowest write ${r.slowestMs.toFixed(0)} ms (statuses ${r.statuses.join(', ')}); ` +
            `/health p50 ${r.health.p50.toFixed(1)} p99 ${r.health.p99.toFixed(1)} max ${r.health.max.toFixed(1)} ms over ${r.health.n}; ` +
            `no-database poll p50 ${r.noDatabase.p50.toFixed(1)} max ${r.noDatabase.max.toFixed(1)} ms; load ${r.load.toFixed(1)}`,
        );
      }
    }
    for (const [i, side] of started.entries()) {
      const m = (f: (r: Round) => number) => median(side.rounds.map(f)).toFixed(1);
      const described = `${sides[i].main ?? 'this build'}${Object.keys(sides[i].env).length ? ' ' + JSON.stringify(sides[i].env) : ''}`;
      console.log(
        `${side.label} (${described}) medians: slowest write ${m((r) => r.slowestMs)} ms, /health p50 ${m((r) => r.health.p50)} ms, ` +
          `p99 ${m((r) => r.health.p99)} ms; no-database poll p50 ${m((r) => r.noDatabase.p50)} ms, p99 ${m((r) => r.noDatabase.p99)} ms`,
      );
    }
  } finally {
    for (const side of started) {
      await side.server.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${side.database} WITH (FORCE)`);
    }
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
