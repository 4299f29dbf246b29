/**
 * The node flags `npm start` and the Docker image start the service with:
 * `node $(node dist/scripts/node-flags.js) dist/src/main.js`. They bound V8's heap
 * (src/env/heap-limit.ts), which only command-line flags can do, and they depend on the
 * database, which is known only from the environment: so a first, short node process prints
 * them and exits before the service starts.
 *
 * - PostgreSQL (DATABASE_URL set): `--max-old-space-size=<ATRIUM_MAX_OLD_SPACE_MB or 192>`.
 * - Embedded (no DATABASE_URL): `--max-old-space-size=<ATRIUM_MAX_OLD_SPACE_MB or 128>
 *   --max-semi-space-size=4 --v8-pool-size=1`. PGlite shares the process, so every megabyte
 *   of JavaScript heap and every V8 worker thread (one instead of one per core; they run the
 *   concurrent marking and compilation, whose stacks and buffers count in the RSS) is taken
 *   from the same budget (docs/bench-notes/embedded-rss.md).
 *
 * The variables are read as src/main.ts reads them: the environment, then a `.env` file in
 * the working directory for what the environment lacks. NODE_OPTIONS is taken from the
 * environment only (node reads it before any .env), and when it sets the old-generation limit
 * itself, that flag is left out: a command-line flag would override it.
 */
import { parseEnv } from 'node:util';

import { defaultMaxOldSpaceMb, EMBEDDED_SEMI_SPACE_MB, MAX_MAX_OLD_SPACE_MB, MIN_MAX_OLD_SPACE_MB } from './heap-limit';

type Env = Readonly<Record<string, string | undefined>>;

/** The variables of the start command, as src/main.ts sees them once it has read `.env`. */
function startVariables(env: Env, dotenv: string | null): { databaseUrl?: string; maxOldSpace?: string } {
  const file = dotenv === null ? {} : parseEnv(dotenv);
  // As process.loadEnvFile: a variable present in the environment wins, even when empty.
  const read = (name: string) => (name in env ? env[name] : file[name]);
  return { databaseUrl: read('DATABASE_URL'), maxOldSpace: read('ATRIUM_MAX_OLD_SPACE_MB') };
}

/**
 * ATRIUM_MAX_OLD_SPACE_MB when it is a valid value (the bounds of src/env/env.schema.ts), else
 * undefined. An invalid value leaves the default here: node would refuse the flag with an
 * obscure error, while the service then stops naming the variable.
 */
function validMaxOldSpace(raw: string | undefined): number | undefined {
  const text = raw?.trim() ?? '';
  if (!/^\d+$/.test(text)) return undefined;
  const mb = Number(text);
  return mb >= MIN_MAX_OLD_SPACE_MB && mb <= MAX_MAX_OLD_SPACE_MB ? mb : undefined;
}

/**
 * The node flags for `env` (process.env) and `dotenv`, the text of the working directory's
 * `.env` file (null when there is none).
 */
export function nodeFlags(env: Env, dotenv: string | null = null): string[] {
  const { databaseUrl, maxOldSpace } = startVariables(env, dotenv);
  const flags: string[] = [];
  if (!/--max[-_]old[-_]space[-_]size=/.test(env.NODE_OPTIONS ?? '')) {
    flags.push(`--max-old-space-size=${validMaxOldSpace(maxOldSpace) ?? defaultMaxOldSpaceMb(databaseUrl)}`);
  }
  if (!databaseUrl?.trim()) flags.push(`--max-semi-space-size=${EMBEDDED_SEMI_SPACE_MB}`, '--v8-pool-size=1');
  return flags;
}
