/**
 * A/B of two service builds (or two settings) on one kept benchmark database: the same load
 * run alternately against A and B, `--rounds` times, and the medians of each side. Made for
 * before/after figures on a shared, noisy machine, where CPU per request (read from /proc)
 * moves less than latency and alternating spreads the noise over both sides.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/ab.js \
 *     --reuse atrium_bench_... --scale 0.02 --a /path/to/old/dist/src/main.js --b dist/src/main.js \
 *     --route search/fast --target user/small --connections 4 --duration 5 --rounds 5 \
 *     [--warmup 10] [--env-a NAME=value,...] [--env-b NAME=value,...] [--flags-a "--cpu-prof ..."] [--flags-b ...]
 *     [--body-a '{"as_of":"2026-01-01T00:00:00Z"}'] [--body-b ...]
 *
 * Two builds with different schemas cannot share a database: `--reuse-a NAME --reuse-b NAME`
 * give each side its own kept database (each seeded by its own build, same `--scale` and
 * `--seed`, so the corpora match row for row). The callers are read from each side's database;
 * when this build's queries cannot read an older schema, `--target-file-a FILE` (or `-b`) takes
 * that side's target as JSON, written by the older build's own bench code (bench/dump-target.ts).
 *
 * `--embedded DIR` runs both sides on the embedded database instead: DIR is a data directory kept by
 * `npm run bench -- --db embedded --seed-only --keep` (the path it prints as DATA_DIR). PGlite
 * takes one process per data directory, so each side runs on its own copy of DIR (removed at the
 * end); `--scale` must be the embedded scale DIR was seeded with (0.02 for the default run).
 *
 * Before each ingest/quick run on PostgreSQL the rows earlier runs stored are removed
 * (bench/database.ts, resetWrites), so every round writes into scopes of the target's sizes.
 *
 * `--route` takes a comma list (e.g. `search/fast,search`): each round runs every route on
 * both sides. The end prints each side's medians per route and its peak RSS (VmHWM).
 * `--body-a`/`--body-b` add JSON fields to one side's search bodies: the same build with `--a`
 * and `--b` equal compares two kinds of request (with and without `as_of`, say).
 */
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { parseEnvList } from './args';
import { loadTargets } from './callers';
import { planCorpus } from './corpus';
import { createBenchDatabase, removeLoadRows, resetWrites } from './database';
import { median, ROUTES, runLoad, warmUp, type Caller, type LoadResult, type Route, type SearchExtras, type Target } from './load';
import { startServer } from './server';

interface AbOptions {
  reuse: string;
  embedded: string;
  reuseA: string;
  reuseB: string;
  targetFileA: string;
  targetFileB: string;
  scale: number;
  seed: number;
  minLargest: number;
  a: string;
  b: string;
  envA: Record<string, string>;
  envB: Record<string, string>;
  flagsA: string[];
  flagsB: string[];
  bodyA: SearchExtras;
  bodyB: SearchExtras;
  routes: Route[];
  target: string;
  connections: number;
  duration: number;
  rounds: number;
  warmup: number;
}

function parse(argv: string[]): AbOptions {
  const o: AbOptions = {
    reuse: '',
    embedded: '',
    reuseA: '',
    reuseB: '',
    targetFileA: '',
    targetFileB: '',
    scale: 0.02,
    seed: 42,
    minLargest: 0,
    a: '',
    b: resolve(__dirname, '..', 'src', 'main.js'),
    envA: {},
    envB: {},
    flagsA: [],
    flagsB: [],
    bodyA: {},
    bodyB: {},
    routes: ['search/fast'],
    target: 'user/small',
    connections: 4,
    duration: 5,
    rounds: 5,
    warmup: 10,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, v] = [argv[i], argv[i + 1] ?? ''];
    switch (flag) {
      case '--reuse':
        o.reuse = v;
        break;
      case '--embedded':
        o.embedded = resolve(v);
        break;
      case '--reuse-a':
        o.reuseA = v;
        break;
      case '--reuse-b':
        o.reuseB = v;
        break;
      case '--target-file-a':
        o.targetFileA = resolve(v);
        break;
      case '--target-file-b':
        o.targetFileB = resolve(v);
        break;
      case '--scale':
        o.scale = Number(v);
        break;
      case '--seed':
        o.seed = Number(v);
        break;
      case '--min-largest':
        o.minLargest = Number(v);
        break;
      case '--a':
        o.a = resolve(v);
        break;
      case '--b':
        o.b = resolve(v);
        break;
      case '--env-a':
        o.envA = parseEnvList(v);
        break;
      case '--env-b':
        o.envB = parseEnvList(v);
        break;
      case '--flags-a':
        o.flagsA = v.split(/\s+/).filter(Boolean);
        break;
      case '--flags-b':
        o.flagsB = v.split(/\s+/).filter(Boolean);
        break;
      case '--body-a':
        o.bodyA = JSON.parse(v) as SearchExtras;
        break;
      case '--body-b':
        o.bodyB = JSON.parse(v) as SearchExtras;
        break;
      case '--route':
        o.routes = v.split(',').map((route) => {
          if (!(ROUTES as readonly string[]).includes(route)) throw new Error(`--route: one or more of ${ROUTES.join(', ')}`);
          return route as Route;
        });
        break;
      case '--target':
        o.target = v;
        break;
      case '--connections':
        o.connections = Number(v);
        break;
      case '--duration':
        o.duration = Number(v);
        break;
      case '--warmup':
        o.warmup = Number(v);
        break;
      case '--rounds':
        o.rounds = Number(v);
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (o.embedded) {
    if (o.reuse || o.reuseA || o.reuseB) throw new Error('--embedded takes no --reuse');
    return o;
  }
  if (!o.reuse && !(o.reuseA && o.reuseB)) throw new Error('--reuse <atrium_bench_...> (or --reuse-a and --reuse-b) is required');
  if (!o.a) throw new Error('--a <main.js> is required');
  o.reuseA ||= o.reuse;
  o.reuseB ||= o.reuse;
  return o;
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const plan = planCorpus(o.scale, o.seed, o.minLargest);
  /** One side's database: its service environment and its callers (ids differ between databases). */
  const copies: string[] = [];
  const open = async (name: string, targetFile: string) => {
    let db;
    if (o.embedded) {
      const copy = await mkdtemp(join(tmpdir(), 'atrium-ab-'));
      await cp(o.embedded, copy, { recursive: true });
      copies.push(copy);
      db = await createBenchDatabase('embedded', undefined, 384, copy);
    } else db = await createBenchDatabase('postgres', process.env.DATABASE_URL, 384, name);
    if (targetFile) {
      await db.closeConnections();
      return { db, target: JSON.parse(readFileSync(targetFile, 'utf8')) as Target };
    }
    const { dataSource } = await db.open();
    // Rows earlier ingest runs added would grow the callers' scopes from run to run.
    await removeLoadRows(dataSource);
    const target = (await loadTargets(dataSource, plan)).find((t) => `${t.scope}/${t.size}` === o.target);
    await db.closeConnections();
    if (!target) throw new Error(`no target ${o.target} in ${name}`);
    return { db, target };
  };
  const opened = [await open(o.reuseA, o.targetFileA)];
  opened.push(o.reuseB === o.reuseA && !o.targetFileB && !o.targetFileA && !o.embedded ? opened[0] : await open(o.reuseB, o.targetFileB));
  const sides = [
    {
      label: 'A',
      main: o.a,
      env: o.envA,
      flags: o.flagsA,
      body: o.bodyA,
      database: o.reuseA,
      ...opened[0],
      runs: [] as LoadResult[],
      peakMb: NaN,
    },
    {
      label: 'B',
      main: o.b,
      env: o.envB,
      flags: o.flagsB,
      body: o.bodyB,
      database: o.reuseB,
      ...opened[1],
      runs: [] as LoadResult[],
      peakMb: NaN,
    },
  ];
  const servers = [];
  // As in the full run (run.ts): the seeding built the tenant graphs, and no background pass
  // (an aggregate over every memory, 15 s after each start) runs during the rounds; a side's
  // --env-a/--env-b can still set it.
  const quiet: Record<string, string> = o.embedded ? {} : { TENANT_GRAPH_INTERVAL_S: '0' };
  for (const side of sides) servers.push(await startServer({ ...side.db.serviceEnv, ...quiet, ...side.env }, side.main, side.flags));
  try {
    for (const i of sides.keys())
      for (const route of o.routes)
        await warmUp(servers[i], route, sides[i].target, plan.vocabulary, o.warmup, sides[i].database, sides[i].body);
    for (let round = 0; round < o.rounds; round++) {
      for (const route of o.routes) {
        for (const [i, side] of round % 2 ? [...sides.entries()].reverse() : [...sides.entries()]) {
          if (route === 'ingest/quick' && !o.embedded) await resetWrites(side.db);
          const r = await runLoad(
            servers[i],
            route,
            side.target,
            plan.vocabulary,
            o.connections,
            o.duration,
            7 + round,
            side.database,
            side.body,
          );
          side.runs.push(r);
          console.log(
            `${side.label} round ${round + 1} ${route}: ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(2)} p95 ${r.p95.toFixed(2)} p99 ${r.p99.toFixed(2)} ms; ` +
              `CPU/req service ${r.serverCpuMs.toFixed(2)} db ${r.databaseCpuMs.toFixed(2)} ms; other load ${r.otherCores.toFixed(2)} cores; errors ${r.errors + r.non2xx}; ` +
              `RSS ${servers[i].memory().rssMb.toFixed(0)} MB, peak ${servers[i].memory().peakMb.toFixed(0)} MB`,
          );
        }
      }
    }
    for (const [i, side] of sides.entries()) side.peakMb = servers[i].memory().peakMb;
  } finally {
    for (const s of servers) await s.stop();
    for (const copy of copies) await rm(copy, { recursive: true, force: true });
  }
  const callers = sides[1].target.callers.map((c: Caller) => c.visibleRows);
  for (const route of o.routes) {
    console.log(
      `\n${route} ${o.target} (${callers.length} callers, ${Math.min(...callers)}-${Math.max(...callers)} visible rows), ${o.connections} connections, ${o.rounds} x ${o.duration} s per side, medians:`,
    );
    for (const side of sides) {
      const runs = side.runs.filter((r) => r.route === route);
      const m = (f: (r: LoadResult) => number) => median(runs.map(f));
      console.log(
        `${side.label} (${side.main}${side.database === o.reuse ? '' : ' on ' + side.database}${Object.keys(side.env).length ? ' ' + JSON.stringify(side.env) : ''}${Object.keys(side.body).length ? ' body ' + JSON.stringify(side.body) : ''}): ` +
          `${m((r) => r.rps).toFixed(0)} req/s, p50 ${m((r) => r.p50).toFixed(2)} ms, p95 ${m((r) => r.p95).toFixed(2)} ms, p99 ${m((r) => r.p99).toFixed(2)} ms, ` +
          `CPU/req service ${m((r) => r.serverCpuMs).toFixed(3)} ms, database ${m((r) => r.databaseCpuMs).toFixed(3)} ms, other load ${m((r) => r.otherCores).toFixed(2)} cores, errors ${runs.reduce((n, r) => n + r.errors + r.non2xx, 0)}`,
      );
    }
  }
  for (const side of sides) console.log(`${side.label}: peak RSS (VmHWM) ${side.peakMb.toFixed(0)} MB`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
