/** Command-line options of `npm run bench -- ...`. */
import type { DatabaseKind } from './database';

export interface BenchOptions {
  /** Fraction of the 1,000,000-memory corpus (per database; see embeddedScale). */
  scale: number;
  /** Scale used on the embedded database (default: scale / 10, at most 0.02). */
  embeddedScale: number;
  dims: number;
  seed: number;
  /** The largest user has at least this many memories (PostgreSQL only). */
  minLargest: number;
  databases: DatabaseKind[];
  /** Seconds of load per autocannon run. */
  duration: number;
  connections: number[];
  /** Queries per scope class for recall. */
  recallQueries: number;
  /** Where to write the report (empty: do not write). */
  out: string;
  /** Keep the benchmark database afterwards (prints its name / data directory). */
  keep: boolean;
  /** Run against an existing atrium_bench_* database seeded earlier with the same options (PostgreSQL). */
  reuse: string;
  /** Stop after seeding (with --keep: a corpus to experiment on). */
  seedOnly: boolean;
  /** Skip the lesson-check sub-benchmark. */
  skipLessons: boolean;
  /** Exit non-zero when a target is missed (CI uses only the correctness targets). */
  check: 'none' | 'correctness' | 'all';
  /** Re-render the report from the results a previous run saved (no measuring). */
  render: string;
  /** NODE_OPTIONS for the service process (e.g. "--max-old-space-size=192"). */
  serverNodeOptions: string;
  /** Recall floor of --check correctness (HNSW builds are not deterministic; CI keeps a margin). */
  minRecall: number;
  /** Tenant graphs for scopes of at least this many live rows, built before measuring (PostgreSQL; 0 = none). */
  tenantGraphMinRows: number;
}

const USAGE = `npm run bench -- [options]
  --scale <f>            fraction of 1,000,000 memories on PostgreSQL (default 1)
  --embedded-scale <f>   fraction on the embedded database (default min(scale/10, 0.02))
  --dims <n>             384 (default) or 1536
  --seed <n>             corpus seed (default 42)
  --min-largest <n>      lift the largest user to n memories on PostgreSQL (CI: a scope above the cutover)
  --db <list>            postgres,embedded (default both; postgres needs DATABASE_URL)
  --duration <s>         seconds per load run (default 10)
  --connections <list>   default 4,32
  --recall-queries <n>   queries per scope class for recall (default 50)
  --out <file>           report file (default docs/benchmarks.md; '' = none)
  --keep                 keep the benchmark database
  --reuse <database>     use a database kept from an earlier run with the same --scale/--seed/--dims
                         (PostgreSQL only; rows added by earlier load runs are removed first)
  --seed-only            stop after seeding
  --skip-lessons         do not run the lesson-check sub-benchmark
  --check <what>         none (default), correctness (recall, counts, errors) or all targets;
                         any --check also shortens the lesson-check run
  --min-recall <f>       recall floor for --check correctness (default 0.99)
  --tenant-graph-min-rows <n>  build tenant graphs (docs/scaling.md) for scopes of at least n live
                         memories before measuring, as npm run db:tenant-graphs does (PostgreSQL;
                         default 3000, the service's TENANT_GRAPH_MIN_ROWS; 0 = none)
  --server-node-options <s>  NODE_OPTIONS for the service process, e.g. "--max-old-space-size=192"
  --render <json>        only re-write the report from the results a run saved (every run saves
                         them to dist/bench/last-run.json)`;

export function parseArgs(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    scale: 1,
    embeddedScale: NaN,
    dims: 384,
    seed: 42,
    minLargest: 0,
    databases: ['postgres', 'embedded'],
    duration: 10,
    connections: [4, 32],
    recallQueries: 50,
    out: 'docs/benchmarks.md',
    keep: false,
    reuse: '',
    seedOnly: false,
    skipLessons: false,
    check: 'none',
    minRecall: 0.99,
    serverNodeOptions: '',
    tenantGraphMinRows: 3_000,
    render: '',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const number = (min: number, max: number): number => {
      const raw = value();
      const n = Number(raw);
      if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${flag} must be a number in [${min}, ${max}], got "${raw}"`);
      return n;
    };
    switch (flag) {
      case '--scale':
        options.scale = number(0.0001, 1);
        break;
      case '--embedded-scale':
        options.embeddedScale = number(0.0001, 1);
        break;
      case '--dims': {
        const d = number(16, 2000);
        if (d !== 384 && d !== 1536) throw new Error('--dims must be 384 or 1536');
        options.dims = d;
        break;
      }
      case '--seed':
        options.seed = Math.floor(number(0, 2 ** 31));
        break;
      case '--min-largest':
        options.minLargest = Math.floor(number(0, 1_000_000));
        break;
      case '--db': {
        const list = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const d of list) if (d !== 'postgres' && d !== 'embedded') throw new Error(`--db: unknown database "${d}"`);
        options.databases = list as DatabaseKind[];
        break;
      }
      case '--duration':
        options.duration = number(0.5, 600);
        break;
      case '--connections':
        options.connections = value()
          .split(',')
          .map((s) => Number(s.trim()));
        if (options.connections.some((c) => !Number.isInteger(c) || c < 1 || c > 1000)) throw new Error('--connections: integers 1..1000');
        break;
      case '--recall-queries':
        options.recallQueries = Math.floor(number(1, 10_000));
        break;
      case '--out':
        options.out = value();
        break;
      case '--keep':
        options.keep = true;
        break;
      case '--reuse':
        options.reuse = value();
        if (!/^atrium_bench_[a-z0-9_]+$/.test(options.reuse)) throw new Error('--reuse takes the name of an atrium_bench_* database');
        break;
      case '--seed-only':
        options.seedOnly = true;
        break;
      case '--skip-lessons':
        options.skipLessons = true;
        break;
      case '--check': {
        const v = value();
        if (v !== 'none' && v !== 'correctness' && v !== 'all') throw new Error('--check: none, correctness or all');
        options.check = v;
        break;
      }
      case '--render':
        options.render = value();
        break;
      case '--tenant-graph-min-rows':
        options.tenantGraphMinRows = Math.floor(number(0, 100_000_000));
        break;
      case '--server-node-options':
        options.serverNodeOptions = value();
        break;
      case '--min-recall':
        options.minRecall = number(0, 1);
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option "${arg}"\n${USAGE}`);
    }
  }
  if (Number.isNaN(options.embeddedScale)) options.embeddedScale = Math.min(options.scale / 10, 0.02);
  return options;
}

/** `NAME=value,NAME=value` (bench/ab.ts --env-a, bench/write-burst.ts BENCH_ENV_A) as an environment. */
export function parseEnvList(raw = ''): Record<string, string> {
  return Object.fromEntries(
    raw
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}
