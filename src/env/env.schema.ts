/**
 * The process environment, validated once at boot. Every variable Atrium reads is declared
 * here with its type, default and a one-line description; `.env.example` mirrors this table
 * (a unit test keeps the two in step). Nothing else in the code reads `process.env`.
 */

import { MAX_MAX_OLD_SPACE_MB, MIN_MAX_OLD_SPACE_MB } from './heap-limit';

type Parser<T> = (raw: string, name: string) => T;

interface VarSpec<T> {
  description: string;
  /** Used when the variable is unset or empty. `undefined` means optional with no value. */
  default?: T;
  required?: boolean;
  parse: Parser<T>;
  /** Value written to .env.example (defaults to the stringified default). */
  example?: string;
}

export class EnvValidationError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid environment: ${variable} ${message}`);
    this.name = 'EnvValidationError';
  }
}

const fail = (name: string, message: string): never => {
  throw new EnvValidationError(name, message);
};

const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (!/^-?\d+$/.test(raw.trim())) fail(name, `must be an integer, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  };

const num =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const value = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(value)) fail(name, `must be a number, got "${raw}"`);
    if (value < min || value > max) fail(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  };

const bool: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  return fail(name, `must be true or false, got "${raw}"`);
};

const str: Parser<string> = (raw) => raw.trim();
/** A PostgreSQL memory setting: a whole number with kB, MB or GB. */
const memorySize: Parser<string> = (raw, name) => {
  const value = raw.trim();
  return /^[1-9][0-9]{0,6}(kB|MB|GB)$/.test(value)
    ? value
    : fail(name, `must be a size such as 512MB (a whole number with kB, MB or GB), got "${raw}"`);
};

/**
 * The embedding providers (EMBEDDING_PROVIDER): the one list. Each needs an entry in
 * EMBEDDING_PROVIDERS (src/embeddings/create-embedding-provider.ts), a Record over this union,
 * so a name added here without its entry does not compile.
 */
export const EMBEDDING_PROVIDER_NAMES = ['local', 'hash', 'openai'] as const;

const oneOf =
  <T extends string>(...values: readonly T[]): Parser<T> =>
  (raw, name) => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value)) fail(name, `must be one of ${values.join(', ')}, got "${raw}"`);
    return value;
  };

const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

const httpUrl: Parser<string> = (raw, name) => {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, `must be an http(s) URL, got "${raw}"`);
    return raw.trim().replace(/\/+$/, '');
  } catch (error) {
    if (error instanceof EnvValidationError) throw error;
    return fail(name, `must be an http(s) URL, got "${raw}"`);
  }
};

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs separated by commas, values URL-encoded. */
const headerList: Parser<Record<string, string>> = (raw, name) => {
  const headers: Record<string, string> = {};
  for (const pair of list(raw, name)) {
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) fail(name, 'must be key=value pairs separated by commas');
    try {
      headers[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      fail(name, `has a value that is not URL-encoded (key ${key})`);
    }
  }
  return headers;
};

const origins: Parser<string[]> = (raw, name) => {
  const values = list(raw, name);
  for (const origin of values) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || url.origin !== origin) fail(name, `must be a comma-separated list of origins like http://localhost:3050, got "${origin}"`);
  }
  return values;
};

const postgresUrl: Parser<string> = (raw, name) => {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    fail(name, 'must be a postgres:// or postgresql:// connection URL');
  }
  return raw.trim();
};

/** Shortest admin token accepted (CONTRACT section 10). */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

const adminToken: Parser<string> = (raw, name) => {
  const value = raw.trim();
  if (value.length < MIN_ADMIN_TOKEN_LENGTH) fail(name, `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  return value;
};

export const ENV_SCHEMA = {
  PORT: { description: 'HTTP port', default: 3050, parse: int(0, 65535) },
  HOST: { description: 'Interface to listen on', default: '0.0.0.0', parse: str },
  ATRIUM_MAX_OLD_SPACE_MB: {
    description:
      'V8 old-generation limit in MB that `npm start` and the Docker image pass to node (--max-old-space-size); unset = 192 on PostgreSQL, 128 on the embedded database (which also gets --max-semi-space-size=4 --v8-pool-size=1)',
    // No default here: it depends on DATABASE_URL (defaultMaxOldSpaceMb in ./heap-limit).
    parse: int(MIN_MAX_OLD_SPACE_MB, MAX_MAX_OLD_SPACE_MB),
    example: '',
  },
  DATABASE_URL: {
    description: 'PostgreSQL (with pgvector >= 0.8) connection URL; unset = embedded PGlite in DATA_DIR',
    parse: postgresUrl,
    example: '',
  },
  DATABASE_DIRECT_URL: {
    description:
      'Direct PostgreSQL URL (no pooler) for migrations and the runtime-config LISTEN connection, when DATABASE_URL goes through PgBouncer; unset = DATABASE_URL',
    parse: postgresUrl,
    example: '',
  },
  DATA_DIR: { description: 'Where the embedded database keeps its files (when DATABASE_URL is unset)', default: './data', parse: str },
  EMBEDDED_SHARED_BUFFERS: {
    description:
      'shared_buffers of the embedded database (no DATABASE_URL): its buffer pool lives in the service process, is written in full at start-up and counts in its RSS',
    default: '16MB',
    parse: memorySize,
  },
  DATABASE_POOL_SIZE: { description: 'Maximum connections in the database pool', default: 10, parse: int(1, 200) },
  DATABASE_PREPARED_STATEMENTS: {
    description:
      'Run the hot search statements as named prepared statements (planned once per connection); off by itself behind a pooler (DATABASE_DIRECT_URL set) and on the embedded database; set false behind PgBouncer < 1.21 without DATABASE_DIRECT_URL',
    default: true,
    parse: bool,
  },
  DATABASE_STATEMENT_TIMEOUT_MS: { description: 'Per-statement timeout on PostgreSQL (0 = none)', default: 15000, parse: int(0, 600000) },
  ALLOWED_ORIGINS: {
    description: 'Comma-separated browser origins allowed by CORS',
    default: ['http://localhost:3050', 'http://localhost:3081'],
    parse: origins,
    example: 'http://localhost:3050,http://localhost:3081',
  },
  RUNTIME_CONFIG_POLL_MS: {
    description:
      'How often each instance compares its runtime config version with the database (the fallback when a change notification is lost)',
    default: 500,
    parse: int(50, 60000),
  },
  LOG_LEVEL: {
    description: 'debug, info, warn, error or silent',
    default: 'info' as const,
    parse: oneOf('debug', 'info', 'warn', 'error', 'silent'),
  },
  WRITE_GATE_WORKERS: {
    description:
      'Worker threads that run the write gate, fact extraction and in-process embeddings on texts over 2,000 characters, off the event loop (started on the first such text)',
    default: 2,
    parse: int(1, 64),
  },
  WRITE_GATE_WORKER_NICE: {
    description:
      'How many steps nicer than the event loop those worker threads run (0-19; 0 = the same priority): under a burst of long writes the operating system runs the event loop first, so /health and reads keep their latency',
    default: 10,
    parse: int(0, 19),
  },
  IMPORT_MAX_BYTES: {
    description:
      'The largest body POST /v1/memories/import takes, in bytes (a larger one is refused with 413, nothing of it written past that point)',
    default: 268_435_456,
    parse: int(1024, 17_179_869_184),
  },
  IMPORT_WRITERS: {
    description:
      'PostgreSQL: import batches written at once, each in a transaction of its own (their HNSW index upkeep runs in parallel); the embedded database writes one at a time',
    default: 2,
    parse: int(1, 16),
  },
  WRITE_GATE_BUDGET_MS: {
    description: 'Time one input may take in a write-gate worker; an input over it is refused (422 GATE_BUDGET_EXCEEDED), never stored',
    default: 1000,
    parse: int(1, 60000),
  },
  SHUTDOWN_TIMEOUT_MS: {
    description: 'How long SIGTERM waits for in-flight requests before cutting them and exiting 1',
    default: 10000,
    parse: int(0, 600000),
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    description: 'A client must send the request headers within this time (else 408 and the connection closes)',
    default: 20000,
    parse: int(1000, 600000),
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    description: 'A client must send the whole request within this time (0 = no limit); at least HTTP_HEADERS_TIMEOUT_MS',
    default: 60000,
    parse: int(0, 3600000),
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    description: 'An idle keep-alive connection is closed after this time',
    default: 5000,
    parse: int(0, 600000),
  },
  HTTP_MAX_CONNECTIONS: {
    description: 'Open HTTP connections at most; further ones are closed on accept (0 = no limit)',
    default: 1024,
    parse: int(0, 1000000),
  },
  CORE_RUNTIME_CONFIG_MUTATION_ENABLED: {
    description: 'Allow PUT /v1/memories/config to change runtime settings (keep false in production)',
    default: false,
    parse: bool,
  },
  LESSONS_ENABLED: { description: 'Record lessons and check every search against them', default: true, parse: bool },
  LESSON_SIMILARITY_THRESHOLD: { description: 'Cosine similarity at which a search matches a lesson', default: 0.75, parse: num(0, 1) },
  MAX_SEARCH_RESULTS: { description: 'Upper bound on the number of memories one search returns', default: 100, parse: int(1, 100) },
  SEARCH_EXACT_SCOPE_LIMIT: {
    description:
      'Visible rows up to which vector search is exact (scope index + distance sort); larger scopes use the HNSW index (docs/benchmarks.md)',
    default: 3000,
    parse: int(0, 10000000),
  },
  SEARCH_HNSW_EF_SEARCH: {
    description: 'hnsw.ef_search for searches of scopes above SEARCH_EXACT_SCOPE_LIMIT (recall against cost)',
    default: 200,
    parse: int(10, 1000),
  },
  SEARCH_FUSION_HNSW_EF_SEARCH: {
    description:
      "hnsw.ef_search for /search's vector candidates on scopes above SEARCH_EXACT_SCOPE_LIMIT: a list for fusion with BM25, not an exact top k (at least twice the candidates; docs/retrieval.md)",
    default: 80,
    parse: int(10, 1000),
  },
  TENANT_GRAPH_MIN_ROWS: {
    description:
      "PostgreSQL: a scope (a user's personal memories, or a workspace) with at least this many live memories gets an HNSW graph of its own, a partial index built in the background (0 = none; docs/scaling.md)",
    default: 3000,
    parse: int(0, 100000000),
  },
  TENANT_GRAPH_INTERVAL_S: {
    description:
      'How often an instance checks for scopes that need a graph of their own, or no longer do (0 = never: run `npm run db:tenant-graphs` instead)',
    default: 600,
    parse: int(0, 86400),
  },
  TENANT_GRAPH_FIRST_PASS_S: {
    description: 'Seconds after boot before the first of those checks, so that start-up and readiness come first',
    default: 15,
    parse: int(0, 86400),
  },
  TENANT_GRAPH_IMPORT_QUIET_S: {
    description:
      'A scope into which an import wrote within this many seconds gets its graph after the import, in one build, instead of during it (0 = no deferral)',
    default: 30,
    parse: int(0, 3600),
  },
  TENANT_GRAPH_BUILD_MEMORY: { description: 'maintenance_work_mem for building a tenant graph', default: '512MB', parse: memorySize },
  EXPIRED_RETENTION_DAYS: {
    description: 'Memories past their expires_at are removed for good (with their versions, grants and access counts) this many days later',
    default: 30,
    parse: int(0, 36500),
  },
  EXPIRY_PURGE_INTERVAL_S: {
    description: 'How often an instance removes memories expired longer than EXPIRED_RETENTION_DAYS (one instance at a time; 0 = never)',
    default: 3600,
    parse: int(0, 604800),
  },
  TERM_STATS_COMPACT_INTERVAL_MS: {
    description:
      'How often an instance folds the BM25 statistics changes that writes append into one row per key (one instance at a time; 0 = never)',
    default: 1000,
    parse: int(0, 3_600_000),
  },
  TERM_STATS_VACUUM_ROWS: {
    description:
      'Change rows an instance folds between two VACUUMs of memory_term_changes, which it runs itself so that the queue stays small with autovacuum slow or off (0 = leave it to autovacuum)',
    default: 50_000,
    parse: int(0, 100_000_000),
  },
  TRUST_SCORING_ENABLED: { description: 'Run the write-security gate (sanitizer + trust) on every write', default: true, parse: bool },
  TRUST_SCORE_MIN_THRESHOLD: { description: 'Writes whose trust score is below this are rejected', default: 0.3, parse: num(0, 1) },
  TRUSTED_SOURCE_SITES: {
    description: 'Comma-separated source_site values that get full source trust',
    default: [] as string[],
    parse: list,
    example: '',
  },
  AUDN_CANDIDATE_THRESHOLD: {
    description: 'Similarity at which an existing memory is a candidate for update/supersede at ingest',
    default: 0.7,
    parse: num(0, 1),
  },
  DUPLICATE_THRESHOLD: {
    description:
      'Similarity at which an ingested fact is a duplicate of a visible memory (unset: calibrated per provider, local 0.98, hash and openai 0.95)',
    parse: num(0, 1),
    example: '',
  },
  EMBEDDING_PROVIDER: {
    description: 'local (offline GloVe), hash (lexical) or openai (any OpenAI-compatible endpoint)',
    default: 'local' as const,
    parse: oneOf(...EMBEDDING_PROVIDER_NAMES),
  },
  EMBEDDING_MODEL: { description: 'Model name sent to the openai provider', default: 'text-embedding-3-small', parse: str },
  EMBEDDING_DIMENSIONS: { description: 'Vector size; must match the memories.embedding column', default: 384, parse: int(8, 4096) },
  EMBEDDING_BASE_URL: { description: 'Base URL of the OpenAI-compatible embeddings API (openai provider)', parse: httpUrl, example: '' },
  EMBEDDING_API_KEY: { description: 'API key for the embeddings endpoint (openai provider)', parse: str, example: '' },
  EMBEDDING_TIMEOUT_MS: { description: 'Timeout of one embeddings request', default: 10000, parse: int(100, 600000) },
  EMBEDDINGS_CACHE_DIR: {
    description: 'Where the local provider keeps its compact vocabulary (default ./.cache/embeddings)',
    parse: str,
    example: '',
  },
  LLM_PROVIDER: {
    description: 'none (rule-based extraction) or openai (any OpenAI-compatible chat-completions endpoint)',
    default: 'none' as const,
    parse: oneOf('none', 'openai'),
  },
  LLM_BASE_URL: {
    description: 'Base URL of the OpenAI-compatible chat API, without /v1 (LLM_PROVIDER=openai)',
    parse: httpUrl,
    example: '',
  },
  LLM_MODEL: { description: 'Chat model used for fact extraction and update decisions', default: 'gpt-4o-mini', parse: str },
  LLM_API_KEY: { description: 'API key for the chat endpoint', parse: str, example: '' },
  LLM_TIMEOUT_MS: { description: 'Timeout of one chat-completions request', default: 20000, parse: int(100, 600000) },
  QUERY_EMBEDDING_CACHE_SIZE: { description: 'Entries in the LRU cache of query embeddings', default: 1000, parse: int(0, 1000000) },
  AUTH_MODE: {
    description: 'off (scope taken from the request parameters) or api_key (every /v1 route needs an API key; docs/security.md)',
    default: 'off' as const,
    parse: oneOf('off', 'api_key'),
  },
  ATRIUM_ADMIN_TOKEN: {
    description: 'Bearer token of the /v1/admin routes (at least 32 characters); required with AUTH_MODE=api_key, unset = no admin routes',
    parse: adminToken,
    example: '',
  },
  AUTH_FAILURES_PER_MINUTE: {
    description:
      'Failed API-key lookups (401) allowed per client address per minute, per instance; past it the address gets 429 until the bucket refills (0: no limit)',
    default: 60,
    parse: int(0, 1000000),
  },
  INSPECTOR_ENABLED: {
    description:
      'Serve the memory inspector at /ui (the static pages npm run build makes; it calls the API with the credential you sign in with)',
    default: true,
    parse: bool,
  },
  OTEL_TRACES_EXPORTER: {
    description:
      'Trace exporter: otlp, console or none; unset = otlp when an OTLP endpoint is set, else tracing is off (docs/observability.md)',
    parse: oneOf('otlp', 'console', 'none'),
    example: '',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    description: 'OTLP/HTTP collector base URL; traces go to <endpoint>/v1/traces (setting it turns tracing on)',
    parse: httpUrl,
    example: '',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    description: 'Full OTLP/HTTP URL for traces (overrides the base endpoint)',
    parse: httpUrl,
    example: '',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    description: 'Headers sent to the OTLP endpoint, key=value pairs separated by commas (values URL-encoded)',
    parse: headerList,
    example: '',
  },
  OTEL_SERVICE_NAME: { description: 'service.name of the exported spans', default: 'atrium', parse: str },
  WEBHOOK_POLL_INTERVAL_MS: {
    description: 'How often this instance looks for webhook deliveries that are due (0 = this instance delivers none)',
    default: 1000,
    parse: int(0, 3600000),
  },
  WEBHOOK_MAX_ATTEMPTS: { description: 'Attempts per webhook delivery before it is dead-lettered', default: 8, parse: int(1, 100) },
  WEBHOOK_RETRY_BASE_MS: {
    description: 'Wait after the first failed attempt; doubled after each further one (at most 6 hours)',
    default: 10000,
    parse: int(10, 3600000),
  },
  WEBHOOK_TIMEOUT_MS: {
    description: 'Timeout of one webhook request (a slower answer is a failed attempt)',
    default: 5000,
    parse: int(100, 60000),
  },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    description: 'Allow webhook URLs on loopback, private and link-local addresses (off: such targets are refused)',
    default: false,
    parse: bool,
  },
} satisfies Record<string, VarSpec<unknown>>;

type Schema = typeof ENV_SCHEMA;
type ValueOf<S> = S extends VarSpec<infer T> ? T : never;
type HasDefault<S> = S extends { default: unknown } ? true : false;

/** The validated environment. Variables with a default are always set. */
export type AppEnv = {
  [K in keyof Schema]: HasDefault<Schema[K]> extends true ? ValueOf<Schema[K]> : ValueOf<Schema[K]> | undefined;
};

export type EnvSource = Record<string, string | undefined>;

/** Parse and validate an environment. Throws EnvValidationError naming the first bad variable. */
export function loadEnv(source: EnvSource): AppEnv {
  const result: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENV_SCHEMA) as [string, VarSpec<unknown>][]) {
    const raw = source[name];
    if (raw === undefined || raw.trim() === '') {
      if (spec.required) fail(name, 'is required');
      result[name] = spec.default;
      continue;
    }
    result[name] = spec.parse(raw, name);
  }
  const env = result as AppEnv;
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
    fail('DATABASE_DIRECT_URL', 'needs DATABASE_URL (it is the direct route to the same database)');
  }
  if (env.EMBEDDING_PROVIDER === 'openai' && !env.EMBEDDING_BASE_URL) {
    fail('EMBEDDING_BASE_URL', 'is required when EMBEDDING_PROVIDER=openai');
  }
  if (env.HTTP_REQUEST_TIMEOUT_MS > 0 && env.HTTP_REQUEST_TIMEOUT_MS < env.HTTP_HEADERS_TIMEOUT_MS) {
    fail('HTTP_REQUEST_TIMEOUT_MS', `must be 0 or at least HTTP_HEADERS_TIMEOUT_MS (${env.HTTP_HEADERS_TIMEOUT_MS})`);
  }
  if (env.LLM_PROVIDER === 'openai' && !env.LLM_BASE_URL) {
    fail('LLM_BASE_URL', 'is required when LLM_PROVIDER=openai');
  }
  if (env.AUTH_MODE === 'api_key' && !env.ATRIUM_ADMIN_TOKEN) {
    fail('ATRIUM_ADMIN_TOKEN', `is required (at least ${MIN_ADMIN_TOKEN_LENGTH} characters) when AUTH_MODE=api_key`);
  }
  return env;
}

/** Names and one-line descriptions, in declaration order (used by the .env.example test). */
export function describeEnv(): { name: string; description: string; example: string }[] {
  return (Object.entries(ENV_SCHEMA) as [string, VarSpec<unknown>][]).map(([name, spec]) => ({
    name,
    description: spec.description,
    example:
      spec.example ?? (Array.isArray(spec.default) ? spec.default.join(',') : spec.default === undefined ? '' : String(spec.default)),
  }));
}
