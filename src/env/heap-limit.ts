/**
 * The V8 old-generation limit (`--max-old-space-size`) that bounds the service's heap.
 *
 * V8 fixes its heap limits when the process starts; setting the flag from inside the process
 * (v8.setFlagsFromString) does not change them. So the bound is a command-line flag: `npm start`
 * and docker/Dockerfile start `node --max-old-space-size=$ATRIUM_MAX_OLD_SPACE_MB` (default
 * 192). Without it V8 sizes the old generation from the machine's memory and lets garbage
 * accumulate; with it the RSS stays bounded under load, for a little more CPU per request
 * spent collecting (docs/performance.md, "Memory", has the figures).
 *
 * The application cannot apply the variable itself; it validates it with the rest of the
 * environment and warns at boot when the process runs with a different limit (started with
 * plain `node dist/src/main.js`, or the variable set in .env, which is read too late). The
 * limit in effect is read from V8 (heap_size_limit), so NODE_OPTIONS counts as well.
 */
export const DEFAULT_MAX_OLD_SPACE_MB = 192;

/**
 * What V8 adds to the old generation in `heap_size_limit` (v8.getHeapStatistics()): the young
 * generation, 3 semi-spaces of 16 MB on 64-bit with default flags (checked with node 20:
 * --max-old-space-size=192 gives 240 MB, 4096 gives 4144).
 */
const YOUNG_GENERATION_MB = 48;

/** The old-generation limit in effect (MB), from V8's heap_size_limit. */
export function oldSpaceLimitMb(heapSizeLimitBytes: number): number {
  return Math.round(heapSizeLimitBytes / 2 ** 20) - YOUNG_GENERATION_MB;
}

/**
 * A warning for the boot log when the limit in effect is not the configured one (more than
 * 8 MB apart), else null. A flag that resizes the young generation (--max-semi-space-size)
 * makes it warn as well: the estimate assumes the default young generation.
 */
export function heapLimitWarning(configuredMb: number, heapSizeLimitBytes: number): string | null {
  const actualMb = oldSpaceLimitMb(heapSizeLimitBytes);
  if (Math.abs(actualMb - configuredMb) <= 8) return null;
  return (
    `ATRIUM_MAX_OLD_SPACE_MB is ${configuredMb} but this process runs with an old-generation limit of about ${actualMb} MB: ` +
    'the variable takes effect through `npm start` or the Docker image (node --max-old-space-size), from the shell environment, not from .env'
  );
}
