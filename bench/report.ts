/**
 * docs/benchmarks.md: the machine, the corpus, every figure of the run, the targets with a
 * verdict, and the EXPLAIN (ANALYZE, BUFFERS) of each plan. The prose around the figures (how
 * to run, the query design, the history of each round) is fixed text kept as Markdown in
 * docs/bench-notes/ and copied in as it is; everything else is measured by this run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../src/common/project-root';
import type { CrossoverRow, EfRow } from './crossover';
import type { DatabaseKind } from './database';
import { idleCapacity, ROUTES, type LoadResult, type ScopeKind, type SizeClass, type Target } from './load';
import type { ExplainedPlan } from './plans';
import type { RecallResult } from './recall';
import type { SeedResult } from './seed';

export interface CorpusSummary {
  memories: number;
  users: number;
  usersUnder1k: number;
  usersOver100k: number;
  largestUsers: number[];
  largestWorkspaces: number[];
  workspaces: number;
  agentsPerWorkspace: [number, number];
  visibility: Record<string, number>;
  grants: number;
}

export interface DatabaseRun {
  kind: DatabaseKind;
  cores: number;
  scale: number;
  description: string;
  settings: Record<string, string>;
  corpus: CorpusSummary;
  seed: SeedResult;
  /** Tenant graphs built (or found) before measuring; absent on the embedded database. */
  tenantGraphs?: TenantGraphBuild;
  crossover: CrossoverRow[];
  ef: EfRow[];
  plans: ExplainedPlan[];
  recall: RecallResult[];
  targets: Target[];
  load: LoadResult[];
  server: { idleRssMb: number; peakRssMb: number };
  lessons: string[];
  wallSeconds: number;
}

export interface TenantGraphBuild {
  minRows: number;
  /** Graphs in place when measuring. */
  graphs: number;
  /** Built by this run (0 when a reused database had them). */
  built: number;
  seconds: number;
  /** Size of all tenant graphs. */
  bytes: number;
  /** Live rows of the scopes with a graph, in all. */
  rows: number;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  loadBefore: number[];
  loadAfter: number[];
  date: string;
  command: string;
  dims: number;
  duration: number;
  serverNodeOptions: string;
  /** How the run was made, when not simply by `command`. */
  note?: string;
}

export interface Verdict {
  target: string;
  measured: string;
  ok: boolean;
  /** Correctness targets fail CI; performance ones only report (shared, noisy machine). */
  correctness: boolean;
  /** For recall targets: the value, so CI can apply its own floor (see --min-recall). */
  recall?: number;
}

/** The fixed sections of the report, in the order they appear (docs/bench-notes/README.md). */
export const NOTES_BEFORE_RUNS = ['design', 'round-two', 'round-two-records', 'round-two-large-scopes', 'lifecycle'] as const;
export const NOTES_AFTER_RUNS = ['api-keys', 'read-cpu-2026-11-28', 'export', 'bm25-statistics', 'embedded-rss', 'write-path'] as const;

/** One fixed section, read from docs/bench-notes/<name>.md at render time. */
export function benchNote(name: string): string {
  return readFileSync(join(findProjectRoot(__dirname), 'docs', 'bench-notes', `${name}.md`), 'utf8');
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const n0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const worst = (rows: LoadResult[], pick: (r: LoadResult) => number, max = true) =>
  rows.length ? (max ? Math.max(...rows.map(pick)) : Math.min(...rows.map(pick))) : NaN;

/** The targets of the issue, judged on one database run. */
export function verdicts(run: DatabaseRun): Verdict[] {
  // The issue's latency and throughput targets were set on scopes of a couple of thousand
  // memories: they are judged on the small load targets (both scope kinds, the worse of the
  // two); the largest scopes have their own target (search/fast p50 <= 15 ms).
  const at = (route: string, c: number, size: 'small' | 'large' = 'small') =>
    run.load.filter((r) => r.route === route && r.connections === c && r.size === size);
  const v: Verdict[] = [];
  const add = (target: string, measured: string, ok: boolean, correctness = false, recall?: number) =>
    v.push({ target, measured, ok, correctness, recall });
  const light = 4;
  const heavy = 32;
  if (at('search/fast', light).length) {
    const rows = at('search/fast', light);
    add('search/fast p50 <= 3 ms (4 conn., small scopes)', `${f2(worst(rows, (r) => r.p50))} ms`, worst(rows, (r) => r.p50) <= 3);
    add('search/fast p95 <= 8 ms (4 conn., small scopes)', `${f2(worst(rows, (r) => r.p95))} ms`, worst(rows, (r) => r.p95) <= 8);
  }
  if (at('search', light).length) {
    const p95 = worst(at('search', light), (r) => r.p95);
    add('search p95 <= 15 ms (4 conn., small scopes)', `${f2(p95)} ms`, p95 <= 15);
  }
  for (const route of ['list', 'get']) {
    if (!at(route, light).length) continue;
    const p95 = worst(at(route, light), (r) => r.p95);
    add(`${route} p95 <= 3 ms (4 conn., small scopes)`, `${f2(p95)} ms`, p95 <= 3);
  }
  if (at('search/fast', heavy).length) {
    const rows = at('search/fast', heavy);
    const rps = worst(rows, (r) => r.rps, false);
    const p99 = worst(rows, (r) => r.p99);
    add('search/fast >= 1,000 req/s (32 conn., small scopes)', `${n0(rps)} req/s`, rps >= 1000);
    add('search/fast p99 <= 60 ms (32 conn., small scopes)', `${f1(p99)} ms`, p99 <= 60);
  }
  if (at('ingest/quick', heavy).length) {
    const rps = worst(at('ingest/quick', heavy), (r) => r.rps, false);
    add('ingest/quick >= 300 req/s (32 conn., small scopes)', `${n0(rps)} req/s`, rps >= 300);
  }
  if (at('search/fast', light, 'large').length) {
    const p50 = worst(at('search/fast', light, 'large'), (r) => r.p50);
    add('largest scopes: search/fast p50 <= 15 ms (4 conn.)', `${f2(p50)} ms`, p50 <= 15);
  }
  const loadRate = run.seed.memories / run.seed.loadSeconds;
  add(
    'bulk seeding >= 5,000 memories/s (INSERTs)',
    `${n0(loadRate)} /s (with index builds: ${n0(run.seed.memories / run.seed.totalSeconds)} /s)`,
    loadRate >= 5000,
  );
  const failures = run.load.reduce((n, r) => n + r.errors + r.non2xx, 0);
  add('no errors under load (all runs)', `${failures} errors / non-2xx`, failures === 0, true);
  if (run.recall.length) {
    const minFast = Math.min(...run.recall.map((r) => r.fastRecall));
    const minHybrid = Math.min(...run.recall.map((r) => r.hybridRecall));
    add('recall@10 >= 0.99, search/fast (worst class)', f3(minFast), minFast >= 0.99, true, minFast);
    add('recall@10 >= 0.99, search (worst class)', f3(minHybrid), minHybrid >= 0.99, true, minHybrid);
    const mismatches = run.recall.reduce((n, r) => n + r.countMismatches + r.errors, 0);
    add('search returns min(limit, visible) rows', `${mismatches} mismatches`, mismatches === 0, true);
  }
  const added = lessonAddedMs(run.lessons);
  if (added.length)
    add('lesson check adds <= 1 ms p50 (1,000 lessons)', added.map((x) => `${f2(x)} ms`).join(', '), Math.max(...added) <= 1);
  const rss = Math.max(
    run.server.peakRssMb,
    worst(run.load, (r) => r.rssMaxMb),
  );
  add('server RSS <= 300 MB under load', `${n0(rss)} MB${run.kind === 'embedded' ? ' (includes the embedded database)' : ''}`, rss <= 300);
  return v;
}

function lessonAddedMs(lines: string[]): number[] {
  return lines.flatMap((l) => {
    const m = /added at p50 (-?[\d.]+) ms/.exec(l);
    return m ? [Number(m[1])] : [];
  });
}

function renderRun(run: DatabaseRun): string {
  const out: string[] = [];
  const c = run.corpus;
  out.push(`## ${run.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}: ${n0(c.memories)} memories (scale ${run.scale})`);
  out.push('');
  out.push(
    `${run.description}. Settings: ${Object.entries(run.settings)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(', ')}. Run took ${f1(run.wallSeconds / 60)} min.`,
  );
  out.push('');
  out.push('### Verdict');
  out.push('');
  out.push(
    table(
      ['target', 'measured', 'met'],
      verdicts(run).map((x) => [x.target, x.measured, x.ok ? 'yes' : '**no**']),
    ),
  );
  out.push('');
  out.push('### Corpus and seeding');
  out.push('');
  out.push(
    `${n0(c.users)} users (${n0(c.usersUnder1k)} under 1,000 memories, ${c.usersOver100k} over 100,000); largest users ${c.largestUsers.map(n0).join(', ')}; ` +
      `${n0(c.workspaces)} workspaces of ${c.agentsPerWorkspace[0]} to ${c.agentsPerWorkspace[1]} agents, largest ${c.largestWorkspaces.map(n0).join(', ')} rows. ` +
      `Visibility: ${Object.entries(c.visibility)
        .map(([k, v]) => `${k} ${n0(v)}`)
        .join(', ')}; ${n0(c.grants)} grants.`,
  );
  out.push('');
  const s = run.seed;
  out.push(
    table(
      ['step', 'seconds', 'rate'],
      [
        ['INSERT (unnest arrays, 1,000 rows per statement)', f1(s.loadSeconds), `${n0(s.memories / s.loadSeconds)} memories/s`],
        ...s.indexes.map((i) => [`CREATE INDEX ${i.name}`, f1(i.seconds), '']),
        ['VACUUM ANALYZE', f1(s.vacuumSeconds), ''],
        ['total', f1(s.totalSeconds), `${n0(s.memories / s.totalSeconds)} memories/s`],
      ],
    ),
  );
  out.push('');
  if (s.tableBytes > 0) {
    out.push(`Table with indexes: ${n0(s.tableBytes / 2 ** 20)} MB, of which HNSW ${n0(s.hnswBytes / 2 ** 20)} MB.`);
    out.push('');
  }
  const g = run.tenantGraphs;
  if (g) {
    out.push(
      g.minRows === 0
        ? 'Tenant graphs: none (`--tenant-graph-min-rows 0`).'
        : `Tenant graphs (scopes of at least ${n0(g.minRows)} live memories, \`npm run db:tenant-graphs\`): ${g.graphs} graphs over ${n0(g.rows)} memories, ` +
            `${n0(g.bytes / 2 ** 20)} MB; ${g.built > 0 ? `${g.built} built by this run in ${f1(g.seconds)} s` : 'all in place from the seeding run'} (not part of the seeding table above).`,
    );
    out.push('');
  }
  if (run.crossover.length) {
    out.push('### Exact versus HNSW, by scope size (in the database, k = 10, 4 round trips for HNSW, 1 for exact)');
    out.push('');
    out.push(
      table(
        ['scope', 'visible rows', 'exact p50 ms', 'HNSW p50 ms', 'HNSW recall@10', 'HNSW short answers'],
        run.crossover.map((r) => [r.scope, n0(r.visible), f2(r.exactP50), f2(r.hnswP50), f3(r.hnswRecall), r.hnswShort]),
      ),
    );
    out.push('');
  }
  if (run.ef.length) {
    out.push(
      '### hnsw.ef_search and over-fetch on the largest scopes (iterative scan in relaxed order, exact re-sort of the candidates, k = 10)',
    );
    out.push('');
    out.push(
      table(
        ['scope', 'visible rows', 'ef_search', 'candidates', 'p50 ms', 'p95 ms', 'recall@10'],
        run.ef.map((r) => [r.scope, n0(r.visible), r.efSearch, r.candidates ?? '–', f2(r.p50), f2(r.p95), f3(r.recall)]),
      ),
    );
    out.push('');
  }
  out.push('### Recall (through HTTP, against the exact answer in SQL)');
  out.push('');
  out.push(
    table(
      [
        'class',
        'callers',
        'visible rows',
        'queries',
        'search/fast recall@10 (min)',
        'search recall@10 (min)',
        'count mismatches',
        'errors',
      ],
      run.recall.map((r) => [
        r.label,
        r.cases,
        `${n0(r.visibleMin)}–${n0(r.visibleMax)}`,
        r.queries,
        `${f3(r.fastRecall)} (${f2(r.fastMinRecall)})`,
        `${f3(r.hybridRecall)} (${f2(r.hybridMinRecall)})`,
        r.countMismatches,
        r.errors,
      ]),
    ),
  );
  out.push('');
  out.push('### Load (autocannon, each run alone; latencies in ms)');
  out.push('');
  out.push(
    `Load callers: ${run.targets
      .map(
        (t) =>
          `${t.scope}/${t.size}: ${t.callers.length} callers, ${n0(Math.min(...t.callers.map((x) => x.visibleRows)))}–${n0(Math.max(...t.callers.map((x) => x.visibleRows)))} visible rows`,
      )
      .join('; ')}. Server RSS idle ${n0(run.server.idleRssMb)} MB, peak (VmHWM) ${n0(run.server.peakRssMb)} MB.`,
  );
  out.push('');
  out.push(
    table(
      [
        'route',
        'scope',
        'size',
        'conn.',
        'req/s',
        'p50',
        'p95',
        'p99',
        'max',
        'errors',
        'non-2xx',
        'RSS MB',
        'CPU ms/req service',
        'CPU ms/req database',
        'other load (cores)',
        'idle capacity req/s',
      ],
      run.load.map((r) => [
        r.route,
        r.scope,
        r.size,
        r.connections,
        n0(r.rps),
        f2(r.p50),
        f2(r.p95),
        f2(r.p99),
        f1(r.max),
        r.errors,
        r.non2xx,
        n0(r.rssMaxMb),
        f2(r.serverCpuMs),
        run.kind === 'embedded' ? 'in service' : f2(r.databaseCpuMs),
        f2(r.otherCores),
        n0(idleCapacity(r, run.cores)),
      ]),
    ),
  );
  out.push('');
  if (run.lessons.length) {
    out.push('### Lesson check (bench/lesson-check.ts, 1,000 active lessons)');
    out.push('');
    out.push('```');
    out.push(...run.lessons);
    out.push('```');
    out.push('');
  }
  if (run.plans.length) {
    out.push('### Plans');
    out.push('');
    for (const p of run.plans) {
      out.push(`#### ${p.title}`);
      out.push('');
      out.push('```sql');
      out.push(p.sql);
      out.push('```');
      out.push('');
      out.push('```');
      out.push(p.plan);
      out.push('```');
      out.push('');
    }
  }
  return out.join('\n');
}

/** What currentFigures needs of a run: its database, corpus size, callers and load runs. */
export type FiguresRun = Pick<DatabaseRun, 'kind' | 'scale' | 'targets' | 'load'> & { corpus: Pick<CorpusSummary, 'memories'> };

const SCOPE_CLASSES: readonly [ScopeKind, SizeClass, string][] = [
  ['user', 'small', 'user, small'],
  ['workspace', 'small', 'workspace, small'],
  ['user', 'large', 'user, largest'],
  ['workspace', 'large', 'workspace, largest'],
];

/**
 * The figures a reader comes for, first: per database, a table per route with a row per scope
 * class (throughput and latency at 4 and 32 connections, CPU per request at 4). The full load
 * table, the plans and the notes follow further down.
 */
export function currentFigures(runs: readonly FiguresRun[]): string {
  const out: string[] = ['## Current figures', ''];
  for (const run of runs) {
    out.push(
      `### ${run.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}: ${n0(run.corpus.memories)} memories (scale ${run.scale})`,
    );
    out.push('');
    for (const route of ROUTES) {
      const rows = SCOPE_CLASSES.flatMap(([scope, size, label]) => {
        const at = (connections: number) =>
          run.load.find((r) => r.route === route && r.scope === scope && r.size === size && r.connections === connections);
        const few = at(4);
        const many = at(32);
        if (!few && !many) return [];
        const visible = run.targets.find((t) => t.scope === scope && t.size === size)?.callers.map((c) => c.visibleRows) ?? [];
        const [low, high] = [Math.min(...visible), Math.max(...visible)];
        const range = visible.length === 0 ? '–' : low === high ? n0(low) : `${n0(low)}–${n0(high)}`;
        const cpu = few ?? many;
        return [
          [
            label,
            range,
            few ? n0(few.rps) : '–',
            few ? `${f2(few.p50)} ms` : '–',
            few ? `${f2(few.p95)} ms` : '–',
            many ? n0(many.rps) : '–',
            many ? `${f2(many.p99)} ms` : '–',
            cpu ? `${f2(cpu.serverCpuMs)} / ${run.kind === 'embedded' ? 'in service' : `${f2(cpu.databaseCpuMs)} ms`}` : '–',
          ],
        ];
      });
      if (rows.length === 0) continue;
      out.push(`#### ${route}`);
      out.push('');
      out.push(
        table(
          ['scope class', 'visible rows', '4 conn.: req/s', 'p50', 'p95', '32 conn.: req/s', 'p99', 'CPU per request: service / database'],
          rows,
        ),
      );
      out.push('');
    }
  }
  return out.join('\n');
}

export function renderReport(machine: Machine, runs: DatabaseRun[]): string {
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    `Generated by \`${machine.command}\` on ${machine.date}. Re-run it to refresh every figure below.${machine.note ? ` ${machine.note}` : ''}`,
  );
  out.push('');
  out.push(
    'What changed, round by round, is in [benchmarks-history.md](benchmarks-history.md); the notes after the measured sections are the dated records behind it.',
  );
  out.push('');
  out.push(currentFigures(runs));
  out.push('');
  out.push('## Machine');
  out.push('');
  out.push(
    table(
      ['', ''],
      [
        ['CPU', `${machine.cpus} × ${machine.cpuModel}`],
        ['memory', `${machine.memoryGb} GB`],
        ['OS / Node', `${machine.os} / ${machine.node}`],
        ['load average before / after', `${machine.loadBefore.map(f1).join(' ')} / ${machine.loadAfter.map(f1).join(' ')}`],
        ['embedding dimensions', String(machine.dims)],
        ['seconds per load run', String(machine.duration)],
        ['service node flags', machine.serverNodeOptions || '(none)'],
        ...runs.map((r) => [r.kind === 'postgres' ? 'PostgreSQL' : 'embedded', r.description]),
      ],
    ),
  );
  out.push('');
  const otherLoad = Math.max(0, ...runs.flatMap((r) => r.load.map((l) => l.otherCores)).filter(Number.isFinite));
  out.push(
    (otherLoad < 0.25
      ? `Nothing else ran on the machine during the load runs (other processes used at most ${f2(otherLoad)} cores; the "other load" column). `
      : `Other processes used up to ${f2(otherLoad)} of the cores during the load runs (the "other load" column): treat the latencies as upper bounds. `) +
      'Every figure comes from one run, none is a best of several. PostgreSQL, the service and autocannon share the two cores.',
  );
  out.push('');
  out.push(...NOTES_BEFORE_RUNS.map(benchNote));
  out.push('');
  for (const run of runs) {
    out.push(renderRun(run));
    out.push('');
  }
  out.push('');
  out.push(...NOTES_AFTER_RUNS.map(benchNote));
  return out.join('\n');
}

/** The console summary: verdicts per database. */
export function summary(runs: DatabaseRun[]): string {
  return runs
    .map(
      (run) =>
        `${run.kind} (${n0(run.corpus.memories)} memories)\n${verdicts(run)
          .map((v) => `  ${v.ok ? 'ok  ' : 'MISS'} ${v.target}: ${v.measured}`)
          .join('\n')}`,
    )
    .join('\n');
}
