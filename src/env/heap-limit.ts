/**
 * The V8 heap limits that bound the service's memory: the old generation
 * (`--max-old-space-size`) and, on the embedded database, the young generation
 * (`--max-semi-space-size`).
 *
 * V8 fixes its heap limits when the process starts; setting the flags from inside the process
 * (v8.setFlagsFromString) does not change them. So the bound is a set of command-line flags:
 * `npm start` and docker/Dockerfile start `node $(node dist/scripts/node-flags.js)`, which
 * picks them by database (src/env/node-flags.ts). Without them V8 sizes the old generation
 * from the machine's memory and lets garbage accumulate; with them the RSS stays bounded under
 * load, for a little more CPU per request spent collecting (docs/performance.md, "Memory", has
 * the figures).
 *
 * The embedded database (no DATABASE_URL) gets the tighter default: PGlite's own memory (its
 * WebAssembly heap and buffer pool) lives in the same process, so the JavaScript heap is the
 * part left to bound (docs/bench-notes/embedded-rss.md).
 *
 * The application cannot apply ATRIUM_MAX_OLD_SPACE_MB itself; it validates it with the rest
 * of the environment and warns at boot when the process runs with a different limit (started
 * with plain `node dist/src/main.js`). The limit in effect is read from V8 (heap_size_limit),
 * so NODE_OPTIONS counts as well.
 */

/** The old-generation limit (MB) with DATABASE_URL set (PostgreSQL). */
export const POSTGRES_MAX_OLD_SPACE_MB = 192;

/** The old-generation limit (MB) on the embedded database (no DATABASE_URL). */
export const EMBEDDED_MAX_OLD_SPACE_MB = 128;

/** The bounds ATRIUM_MAX_OLD_SPACE_MB is validated against (src/env/env.schema.ts). */
export const MIN_MAX_OLD_SPACE_MB = 96;
export const MAX_MAX_OLD_SPACE_MB = 65536;

/**
 * The semi-space size (MB) on the embedded database: a young generation of 12 MB instead of
 * 48, collected more often.
 */
export const EMBEDDED_SEMI_SPACE_MB = 4;

/** V8's semi-space size without --max-semi-space-size (64-bit, node 20). */
export const DEFAULT_SEMI_SPACE_MB = 16;

/** The default old-generation limit for a database: `DATABASE_URL` unset or empty = embedded. */
export function defaultMaxOldSpaceMb(databaseUrl: string | undefined): number {
  return databaseUrl?.trim() ? POSTGRES_MAX_OLD_SPACE_MB : EMBEDDED_MAX_OLD_SPACE_MB;
}

/**
 * The semi-space size (MB) that node's flags set: the last `--max-semi-space-size=N` of
 * `nodeArgs` (NODE_OPTIONS split on spaces, then process.execArgv, which node applies after
 * it), else V8's default.
 */
export function semiSpaceMb(nodeArgs: readonly string[]): number {
  let mb = DEFAULT_SEMI_SPACE_MB;
  for (const arg of nodeArgs) {
    const match = /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(arg);
    if (match) mb = Number(match[1]);
  }
  return mb;
}

/**
 * The old-generation limit in effect (MB), from V8's heap_size_limit. V8 adds the young
 * generation to the old one there: 3 semi-spaces (two for the scavenger, one for large young
 * objects), so 48 MB by default and 12 MB with --max-semi-space-size=4 (checked with node 20:
 * --max-old-space-size=192 gives 240 MB, 4096 gives 4144, 128 with 4 MB semi-spaces 140).
 */
export function oldSpaceLimitMb(heapSizeLimitBytes: number, semiSpace = DEFAULT_SEMI_SPACE_MB): number {
  return Math.round(heapSizeLimitBytes / 2 ** 20) - 3 * semiSpace;
}

/**
 * A warning for the boot log when the limit in effect is not the configured one (more than
 * 8 MB apart), else null. `semiSpace` is the semi-space size the process's flags set
 * (semiSpaceMb), without which the young generation would be mistaken for old space.
 */
export function heapLimitWarning(configuredMb: number, heapSizeLimitBytes: number, semiSpace = DEFAULT_SEMI_SPACE_MB): string | null {
  const actualMb = oldSpaceLimitMb(heapSizeLimitBytes, semiSpace);
  if (Math.abs(actualMb - configuredMb) <= 8) return null;
  return (
    `the old-generation limit should be ${configuredMb} MB (ATRIUM_MAX_OLD_SPACE_MB, or its default for this database) but this process runs with about ${actualMb} MB: ` +
    'the limit is a node flag, which `npm start` and the Docker image pass (node $(node dist/scripts/node-flags.js) dist/src/main.js); plain `node dist/src/main.js` runs without it'
  );
}
