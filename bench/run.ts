/**
 * `npm run bench -- [options]` (see bench/args.ts): seed a synthetic corpus in a dedicated
 * database, measure the query plans in SQL, start Atrium and drive it over HTTP, measure
 * recall against exact answers, run the lesson-check benchmark, write docs/benchmarks.md.
 * Runs on PostgreSQL (DATABASE_URL points at the server; a fresh atrium_bench_* database is
 * created and dropped) and on the embedded database (a fresh temp data directory).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { dirname, resolve } from 'node:path';

import { Client } from 'pg';
import type { DataSource } from 'typeorm';

import { SYSTEM_ACTOR } from '../src/common/identity/principal';
import { MemoryAccess } from '../src/database/access/memory-access';
import { existingTenantGraphs, largeScopes, reconcileTenantGraphs, tenantGraphName } from '../src/database/maintenance/tenant-graphs';
import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { MemoriesRepository } from '../src/memories/memories.repository';
import { hnswOverFetch, VectorSearch } from '../src/retrieval/vector-search';
import { parseArgs, type BenchOptions } from './args';
import {
  crossoverScopes,
  describeScope,
  largestUsers,
  largestWorkspaces,
  loadTargets,
  queriesFor,
  recallClasses,
  toScope,
  toWire,
} from './callers';
import { planCorpus, type CorpusPlan } from './corpus';
import { measureCrossover, measureEfSearch } from './crossover';
import { createBenchDatabase, removeLoadRows, resetWrites, type DatabaseKind } from './database';
import { ROUTES, runLoad, warmUp, type LoadResult } from './load';
import { explainRecorded, QueryRecorder, type ExplainedPlan } from './plans';
import { buildCase, countVisible, measureRecall, type RecallCase, type RecallResult } from './recall';
import {
  renderReport,
  summary,
  verdicts,
  type CorpusSummary,
  type DatabaseRun,
  type Machine,
  type TenantGraphBuild,
  type Verdict,
} from './report';
import { seedCorpus, type SeedResult } from './seed';
import { startServer } from './server';

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function corpusSummary(ds: DataSource, plan: CorpusPlan): Promise<CorpusSummary> {
  const vis: { visibility: string | null; n: string }[] = await ds.query(
    "SELECT COALESCE(visibility, 'none (user scope)') AS visibility, count(*) AS n FROM memories GROUP BY 1 ORDER BY 1",
  );
  const [{ n: grants }] = await ds.query('SELECT count(*) AS n FROM memory_visibility_grants');
  const sizes = plan.users.map((u) => u.size);
  const workspaces = plan.users.flatMap((u) => u.workspaces);
  return {
    memories: plan.total,
    users: plan.users.length,
    usersUnder1k: sizes.filter((s) => s < 1000).length,
    usersOver100k: sizes.filter((s) => s > 100_000).length,
    largestUsers: [...sizes].sort((a, b) => b - a).slice(0, 5),
    largestWorkspaces: workspaces
      .map((w) => w.size)
      .sort((a, b) => b - a)
      .slice(0, 5),
    workspaces: workspaces.length,
    agentsPerWorkspace: [Math.min(...workspaces.map((w) => w.agents.length)), Math.max(...workspaces.map((w) => w.agents.length))],
    visibility: Object.fromEntries(vis.map((r) => [r.visibility ?? 'none', Number(r.n)])),
    grants: Number(grants),
  };
}

async function capturePlans(
  ds: DataSource,
  search: VectorSearch,
  repository: MemoriesRepository,
  recorder: QueryRecorder,
  plan: CorpusPlan,
  dims: number,
): Promise<ExplainedPlan[]> {
  const embedder = new HashEmbeddingProvider(dims);
  const out: ExplainedPlan[] = [];
  const smallUser = plan.users.find((u) => u.personal >= 100 && u.personal < 1000) ?? plan.users[plan.users.length - 1];
  const [bigUser] = largestUsers(plan, 1);
  const [bigWs] = largestWorkspaces(plan, 1);
  const smallWs = plan.users.flatMap((u) => u.workspaces.map((w) => ({ u, w }))).find(({ w }) => w.size >= 100 && w.size < 1000);
  const cases = [
    { title: 'search/fast, small user scope', choice: { user: smallUser, agentScope: { kind: 'all' as const }, rows: smallUser.personal } },
    { title: 'search/fast, largest user scope', choice: bigUser },
    ...(smallWs
      ? [
          {
            title: 'search/fast, small workspace scope',
            choice: {
              user: smallWs.u,
              workspace: smallWs.w,
              agentId: smallWs.w.agents[0],
              agentScope: { kind: 'all' as const },
              rows: smallWs.w.size,
            },
          },
        ]
      : []),
    ...(bigWs ? [{ title: 'search/fast, largest workspace scope', choice: bigWs }] : []),
  ];
  // ingest's INSERT (one memory, every index maintained, HNSW included), on the largest user
  const insertScope = toScope(bigUser);
  const [listed] = await repository.listVisible(insertScope, { limit: 1, offset: 0 });
  if (listed) {
    const sample = listed.memory;
    const row = { ...sample, id: randomUUID(), embedding: embedder.embedOne(`${sample.content} again`) };
    // The memory's INSERT only: its audit event (same transaction) was stored once already and
    // replaying it under EXPLAIN ANALYZE would repeat its primary key.
    const recorded = (await recorder.capture(() => repository.insertMemories([row], SYSTEM_ACTOR))).filter(
      (q) => !/INSERT INTO audit_events/.test(q.sql),
    );
    await ds.query('DELETE FROM memories WHERE id = $1 AND user_id = $2', [row.id, row.userId]);
    out.push(
      ...(await explainRecorded(ds, `ingest: INSERT of one memory (user with ${bigUser.rows.toLocaleString('en-US')} rows)`, recorded)),
    );
  }
  for (const c of cases) {
    const scope = toScope(c.choice);
    const text = queriesFor(plan, c.choice.user, 1, 7)[0];
    const vector = embedder.embedOne(text);
    const visible = await countVisible(ds, scope);
    const title = `${c.title} (${describeScope(c.choice)}, ${visible.toLocaleString('en-US')} visible rows)`;
    // once unrecorded so the size cache is in its steady state, then recorded
    await search.nearestVisible(scope, vector, 10);
    out.push(
      ...(await explainRecorded(ds, `${title}: nearestVisible`, await recorder.capture(() => search.nearestVisible(scope, vector, 10)))),
    );
    if (c.choice.rows >= 1000) {
      const words = text.split(' ');
      out.push(
        ...(await explainRecorded(
          ds,
          `${title}: textMatches (search)`,
          await recorder.capture(() => search.textMatches(scope, words, vector, 40)),
        )),
      );
      out.push(
        ...(await explainRecorded(
          ds,
          `${title}: list`,
          await recorder.capture(() => repository.listVisible(scope, { limit: 20, offset: 0 })),
        )),
      );
      const [one] = await repository.listVisible(scope, { limit: 1, offset: 37 });
      if (one)
        out.push(
          ...(await explainRecorded(ds, `${title}: get`, await recorder.capture(() => repository.findVisibleById(scope, one.memory.id)))),
        );
    }
  }
  return out;
}

function runLessonBenchmark(kind: DatabaseKind, ci: boolean): Promise<string[]> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  if (kind === 'embedded') delete env.DATABASE_URL;
  if (ci) Object.assign(env, { BENCH_ROUNDS: '1', BENCH_REQUESTS: '50', BENCH_MEMORIES: '500' });
  return new Promise((resolveLines, reject) => {
    const child = spawn(process.execPath, [resolve(__dirname, 'lesson-check.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = out.split('\n').filter((l) => l.trim());
      if (code !== 0) reject(new Error(`lesson-check exited with ${code}:\n${out}`));
      else resolveLines(lines);
    });
  });
}

/** How the last service was started (node flags), for the report's machine table. */
let serverFlags = '';

async function benchDatabase(kind: DatabaseKind, options: BenchOptions): Promise<DatabaseRun | null> {
  const started = performance.now();
  const scale = kind === 'postgres' ? options.scale : options.embeddedScale;
  const plan = planCorpus(scale, options.seed, kind === 'postgres' ? options.minLargest : 0);
  log(
    `${kind}: corpus of ${plan.total.toLocaleString('en-US')} memories for ${plan.users.length} users (scale ${scale}, ${options.dims} dims)`,
  );
  const reuse = kind === 'postgres' ? options.reuse : '';
  const db = await createBenchDatabase(kind, process.env.DATABASE_URL, options.dims, reuse);
  try {
    const recorder = new QueryRecorder();
    const { pool, dataSource: ds } = await db.open(recorder);
    const [{ version }] = await ds.query('SELECT version()');
    const [{ extversion }] = await ds.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    const settingRows: { name: string; setting: string; unit: string | null }[] = await ds.query(
      "SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'effective_cache_size', 'jit', 'max_parallel_workers_per_gather', 'random_page_cost')",
    );
    const settings = Object.fromEntries(
      settingRows.map((r) => [r.name, r.unit ? `${r.setting}${r.unit === '8kB' ? '×8kB' : r.unit}` : r.setting]),
    );
    const pglite = kind === 'embedded' && !/PGlite/.test(String(version)) ? ` (PGlite ${readPackageVersion('@electric-sql/pglite')})` : '';
    const description = `${String(version).split(' on ')[0]}${pglite}, pgvector ${extversion}`;

    const corpusKey = JSON.stringify({
      scale,
      seed: options.seed,
      dims: options.dims,
      minLargest: kind === 'postgres' ? options.minLargest : 0,
    });
    let seed: SeedResult;
    if (reuse) {
      log(`reusing ${reuse}`);
      seed = await reusedSeed(ds, corpusKey);
    } else {
      log('seeding');
      seed = await seedCorpus(pool, plan, {
        dims: options.dims,
        batchSize: 1000,
        concurrency: kind === 'postgres' ? 2 : 1,
        maintenanceWorkMem: kind === 'postgres' ? (plan.total > 300_000 ? '4GB' : '1GB') : '256MB',
        parallelWorkers: kind === 'postgres' ? 2 : 0,
        log,
      });
      await ds.query('CREATE TABLE bench_corpus (corpus text NOT NULL, seed jsonb NOT NULL)');
      await ds.query('INSERT INTO bench_corpus VALUES ($1, $2)', [corpusKey, JSON.stringify(seed)]);
    }
    const tenantGraphs = kind === 'postgres' ? await buildTenantGraphs(db.serviceEnv.DATABASE_URL, options.tenantGraphMinRows) : undefined;
    if (options.seedOnly) {
      log(`seeded; ${options.keep ? `kept: ${JSON.stringify(db.serviceEnv)}` : 'dropping'}`);
      return null;
    }
    const corpus = await corpusSummary(ds, plan);
    const access = new MemoryAccess(ds);
    const search = new VectorSearch(access);
    const repository = new MemoriesRepository(access);

    log('exact versus HNSW by scope size');
    const sweepQueries = Math.max(5, Math.min(20, options.recallQueries));
    const crossScopes = await Promise.all(
      crossoverScopes(plan).map(async (c, i) => ({
        label: describeScope(c),
        scope: toScope(c),
        visible: await countVisible(ds, toScope(c)),
        texts: queriesFor(plan, c.user, sweepQueries, 500 + i),
      })),
    );
    const crossover = await measureCrossover(search, crossScopes, options.dims);
    const efScopes = await Promise.all(
      [...largestUsers(plan, 1), ...largestWorkspaces(plan, 1)].map(async (c, i) => ({
        label: describeScope(c),
        scope: toScope(c),
        visible: await countVisible(ds, toScope(c)),
        texts: queriesFor(plan, c.user, sweepQueries, 700 + i),
      })),
    );
    const efVariants = [
      [40, 40],
      [100, 40],
      [200, 40],
      [400, 40],
      [100, hnswOverFetch(10)],
      [200, hnswOverFetch(10)],
      [400, hnswOverFetch(10)],
      [200, 200],
    ].map(([efSearch, candidates]) => ({ efSearch, candidates }));
    const ef = await measureEfSearch(ds, search, recorder, efScopes, options.dims, efVariants);

    log('plans');
    const plans = await capturePlans(ds, search, repository, recorder, plan, options.dims);

    log('ground truth for recall');
    const recallCases: { label: string; cases: RecallCase[] }[] = [];
    for (const [ci, cls] of recallClasses(plan).entries()) {
      const cases: RecallCase[] = [];
      const per = Math.max(1, Math.ceil(options.recallQueries / cls.picks.length));
      for (const [pi, pick] of cls.picks.entries()) {
        cases.push(
          await buildCase(ds, cls.label, toScope(pick), toWire(pick), queriesFor(plan, pick.user, per, 3000 + ci * 50 + pi), options.dims),
        );
      }
      recallCases.push({ label: cls.label, cases });
    }
    const targets = await loadTargets(ds, plan);
    await db.closeConnections();

    log('starting Atrium');
    const server = await startServer({
      ...db.serviceEnv,
      // the graphs were reconciled above; no background pass during the measurements
      ...(kind === 'postgres' ? { TENANT_GRAPH_MIN_ROWS: String(options.tenantGraphMinRows), TENANT_GRAPH_INTERVAL_S: '0' } : {}),
      EMBEDDING_DIMENSIONS: String(options.dims),
      ...(options.serverNodeOptions ? { NODE_OPTIONS: options.serverNodeOptions } : {}),
    });
    const idleRssMb = server.memory().rssMb;
    serverFlags = [...server.nodeFlags, ...(options.serverNodeOptions ? [`NODE_OPTIONS=${options.serverNodeOptions}`] : [])].join(' ');
    const database = db.serviceEnv.DATABASE_URL ? new URL(db.serviceEnv.DATABASE_URL).pathname.slice(1) : undefined;
    const recall: RecallResult[] = [];
    const load: LoadResult[] = [];
    let peakRssMb = NaN;
    try {
      log('recall through HTTP');
      for (const r of recallCases) recall.push(await measureRecall(server.url, r.label, r.cases));
      for (const route of ROUTES) {
        for (const [i, target] of targets.entries()) {
          // warm plans, pools and caches before measuring; with CI's one-second runs, once per route
          if (i === 0 || options.duration > 2)
            await warmUp(server, route, target, plan.vocabulary, Math.min(2, options.duration / 2), database);
          for (const connections of options.connections) {
            if (route === 'ingest/quick') await resetWrites(db);
            const result = await runLoad(
              server,
              route,
              target,
              plan.vocabulary,
              connections,
              options.duration,
              connections * 31 + 7,
              database,
            );
            load.push(result);
            log(
              `  ${route} ${target.scope}/${target.size} c=${connections}: ${Math.round(result.rps)} req/s p50 ${result.p50.toFixed(2)} p95 ${result.p95.toFixed(2)} p99 ${result.p99.toFixed(2)} ms, errors ${result.errors + result.non2xx}, RSS ${Math.round(result.rssMaxMb)} MB; CPU/req server ${result.serverCpuMs.toFixed(2)} db ${result.databaseCpuMs.toFixed(2)} ms; other load ${result.otherCores.toFixed(2)} cores`,
            );
          }
        }
      }
    } finally {
      peakRssMb = server.memory().peakMb;
      await server.stop();
    }
    let lessons: string[] = [];
    if (!options.skipLessons) {
      log('lesson check (bench/lesson-check.ts)');
      lessons = await runLessonBenchmark(kind, options.check !== 'none');
      for (const l of lessons) log(`  ${l}`);
    }
    return {
      kind,
      cores: availableParallelism(),
      scale,
      description,
      settings,
      corpus,
      seed,
      tenantGraphs,
      crossover,
      ef,
      plans,
      recall,
      targets,
      load,
      server: { idleRssMb, peakRssMb },
      lessons,
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (options.keep || reuse) {
      await db.closeConnections();
      log(`kept the database: ${JSON.stringify(db.serviceEnv)}`);
    } else await db.drop();
  }
}

/**
 * Tenant graphs for the corpus's large scopes, as `npm run db:tenant-graphs` builds them (a
 * reused database keeps those of an earlier run; graphs of a different threshold are rebuilt
 * or dropped).
 */
async function buildTenantGraphs(url: string | undefined, minRows: number): Promise<TenantGraphBuild> {
  if (!url) throw new Error('tenant graphs: no database URL');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET max_parallel_maintenance_workers = 2');
    const started = performance.now();
    const result = await reconcileTenantGraphs(client, {
      minRows,
      maintenanceWorkMem: '1GB',
      onChange: (c) => {
        if (c.action === 'built')
          log(
            `  tenant graph for ${c.scope.workspaceId ? 'a workspace' : 'a user scope'} of ${c.liveRows} memories built in ${((c.ms ?? 0) / 1000).toFixed(1)} s`,
          );
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const graphs = [...(await existingTenantGraphs(client)).keys()];
    const { rows } = await client.query<{ bytes: string | null }>(
      'SELECT sum(pg_relation_size(c.oid))::text AS bytes FROM pg_class c WHERE c.relname = ANY($1)',
      [graphs],
    );
    const scopes = minRows > 0 ? await largeScopes(client, Math.ceil(minRows / 2)) : [];
    const covered = scopes.filter((s) => graphs.includes(tenantGraphName(s)));
    log(`tenant graphs: ${graphs.length} (${result.built.length} built, ${result.dropped.length} dropped) in ${seconds.toFixed(1)} s`);
    return {
      minRows,
      graphs: graphs.length,
      built: result.built.length,
      seconds,
      bytes: Number(rows[0].bytes ?? 0),
      rows: covered.reduce((a, s) => a + s.liveRows, 0),
    };
  } finally {
    await client.end();
  }
}

/** A kept corpus: check it is the one asked for, drop what earlier load runs added. */
async function reusedSeed(ds: DataSource, corpusKey: string): Promise<SeedResult> {
  const rows: { corpus: string; seed: SeedResult }[] = await ds.query('SELECT corpus, seed FROM bench_corpus');
  if (rows.length !== 1 || rows[0].corpus !== corpusKey) {
    throw new Error(`--reuse: the database holds corpus ${rows[0]?.corpus ?? '(none)'}, not ${corpusKey}`);
  }
  await removeLoadRows(ds);
  return rows[0].seed;
}

function readPackageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

const SAVED_RESULTS = resolve(__dirname, 'last-run.json');

async function writeReport(out: string, machine: Machine, runs: DatabaseRun[]): Promise<void> {
  const path = resolve(process.cwd(), out);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, renderReport(machine, runs));
  log(`wrote ${out}`);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.render) {
    const saved = JSON.parse(readFileSync(options.render, 'utf8')) as { machine: Machine; runs: DatabaseRun[] };
    await writeReport(options.out || 'docs/benchmarks.md', saved.machine, saved.runs);
    return;
  }
  const loadBefore = loadavg();
  const runs: DatabaseRun[] = [];
  for (const kind of options.databases) {
    const run = await benchDatabase(kind, options);
    if (run) runs.push(run);
  }
  if (runs.length === 0) return;
  const machine: Machine = {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${type()} ${release()}`,
    loadBefore,
    loadAfter: loadavg(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    dims: options.dims,
    duration: options.duration,
    serverNodeOptions: serverFlags,
  };
  await writeFile(SAVED_RESULTS, JSON.stringify({ machine, runs }));
  if (options.out) await writeReport(options.out, machine, runs);
  console.log(`\n${summary(runs)}`);
  if (options.check !== 'none') {
    const failed = (v: Verdict) =>
      options.check === 'correctness' && v.recall !== undefined
        ? v.recall < options.minRecall
        : !v.ok && (options.check === 'all' || v.correctness);
    const missed = runs.flatMap((r) =>
      verdicts(r)
        .filter(failed)
        .map((v) => `${r.kind}: ${v.target} (${v.measured})`),
    );
    if (missed.length) {
      console.error(`\nbenchmark check failed:\n  ${missed.join('\n  ')}`);
      process.exit(1);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
