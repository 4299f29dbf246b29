/**
 * HTTP load with autocannon: one route, one kind of scope, one connection count per run.
 * Every request is built fresh (setupRequest), rotating over callers, query texts and ids,
 * so no single row or cached plan makes a route look faster than it is. Latencies are taken
 * from autocannon's per-response timings (exact percentiles, not histogram buckets).
 */
import autocannon from 'autocannon';

import { CORPUS_NOW, ingestText, type UserPlan, type Vocabulary } from './corpus';
import { startCpuMeter } from './cpu';
import { Rng } from './random';
import type { RunningServer } from './server';

export const ROUTES = ['search/fast', 'search', 'list', 'get', 'expand', 'ingest/quick'] as const;
export type Route = (typeof ROUTES)[number];
export type ScopeKind = 'user' | 'workspace';
export type SizeClass = 'small' | 'large';

export interface Caller {
  user: UserPlan;
  workspaceId?: string;
  agentId?: string;
  /** Rows this caller sees (for the report). */
  visibleRows: number;
  queries: string[];
  /** Ids of memories this caller sees, for get and expand. */
  ids: string[];
}

export interface Target {
  scope: ScopeKind;
  size: SizeClass;
  callers: Caller[];
}

export interface LoadResult {
  route: Route;
  scope: ScopeKind;
  size: SizeClass;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  rssMaxMb: number;
  /** CPU milliseconds per completed request: the service, its database backends, autocannon. */
  serverCpuMs: number;
  databaseCpuMs: number;
  driverCpuMs: number;
  /** Cores busy with other processes on the machine during the run (noise). */
  otherCores: number;
}

/**
 * What the run's CPU costs allow on an idle machine of `cores` cores: the service's event
 * loop is one core, and the service and its database share all of them.
 */
export function idleCapacity(r: LoadResult, cores: number): number {
  return Math.min(1000 / r.serverCpuMs, (cores * 1000) / (r.serverCpuMs + r.databaseCpuMs));
}

/** The median of unsorted values (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function scopeFields(c: Caller): Record<string, string> {
  return c.workspaceId
    ? { user_id: c.user.userId, workspace_id: c.workspaceId, agent_id: c.agentId as string }
    : { user_id: c.user.userId };
}

interface BuiltRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Fields added to every search body of a run (e.g. `{ as_of }`: bench/ab.ts --body-b). */
export type SearchExtras = Record<string, unknown>;

function requestBuilder(route: Route, target: Target, vocabulary: Vocabulary, seed: number, extras: SearchExtras = {}): () => BuiltRequest {
  let n = 0;
  const rng = new Rng(seed);
  const referenceTime = new Date(CORPUS_NOW).toISOString();
  return () => {
    const caller = target.callers[n % target.callers.length];
    const turn = Math.floor(n / target.callers.length);
    n++;
    const scope = scopeFields(caller);
    switch (route) {
      case 'search/fast':
      case 'search':
        return {
          method: 'POST',
          path: `/v1/memories/${route}`,
          body: JSON.stringify({
            ...scope,
            query: caller.queries[turn % caller.queries.length],
            limit: 10,
            reference_time: referenceTime,
            ...extras,
          }),
        };
      case 'list': {
        const params = new URLSearchParams({ ...scope, limit: '20', offset: String((turn % 3) * 20) });
        return { method: 'GET', path: `/v1/memories/list?${params}` };
      }
      case 'get': {
        const params = new URLSearchParams(scope);
        return { method: 'GET', path: `/v1/memories/${caller.ids[turn % caller.ids.length]}?${params}` };
      }
      case 'expand': {
        const ids = Array.from({ length: Math.min(10, caller.ids.length) }, (_, i) => caller.ids[(turn * 7 + i * 13) % caller.ids.length]);
        return { method: 'POST', path: '/v1/memories/expand', body: JSON.stringify({ ...scope, memory_ids: ids }) };
      }
      case 'ingest/quick':
        return {
          method: 'POST',
          path: '/v1/memories/ingest/quick',
          body: JSON.stringify({
            ...scope,
            conversation: ingestText(rng, vocabulary, caller.user),
            source_site: 'bench.load',
            skip_extraction: true,
          }),
        };
    }
  };
}

const JSON_HEADERS: Record<string, string> = { 'content-type': 'application/json' };
const NO_HEADERS: Record<string, string> = {};

/** One autocannon run. */
export async function runLoad(
  server: RunningServer,
  route: Route,
  target: Target,
  vocabulary: Vocabulary,
  connections: number,
  durationSeconds: number,
  seed: number,
  database?: string,
  extras?: SearchExtras,
): Promise<LoadResult> {
  const next = requestBuilder(route, target, vocabulary, seed, extras);
  const latencies: number[] = [];
  let rssMaxMb = server.memory().rssMb;
  const sampler = setInterval(() => {
    rssMaxMb = Math.max(rssMaxMb, server.memory().rssMb);
  }, 250);
  const started = performance.now();
  const stopMeter = startCpuMeter(server.pid, database);
  const instance = autocannon({
    url: server.url,
    connections,
    duration: durationSeconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => {
          const built = next();
          return {
            ...request,
            method: built.method,
            path: built.path,
            body: built.body,
            headers: built.body ? JSON_HEADERS : NO_HEADERS,
          };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  const cpu = stopMeter();
  const elapsed = (performance.now() - started) / 1000;
  const perRequest = (seconds: number) => (latencies.length ? (seconds * 1000) / latencies.length : NaN);
  clearInterval(sampler);
  rssMaxMb = Math.max(rssMaxMb, server.memory().rssMb);
  const sorted = Float64Array.from(latencies).sort();
  return {
    route,
    scope: target.scope,
    size: target.size,
    connections,
    requests: latencies.length,
    rps: latencies.length / (result.duration > 0 ? result.duration : elapsed),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    rssMaxMb,
    serverCpuMs: perRequest(cpu.serverSeconds),
    databaseCpuMs: perRequest(cpu.databaseSeconds),
    driverCpuMs: perRequest(cpu.driverSeconds),
    otherCores: cpu.otherSeconds / cpu.wallSeconds,
  };
}

/** A short unmeasured run so plans, pools and caches are warm before measuring. */
export async function warmUp(
  server: RunningServer,
  route: Route,
  target: Target,
  vocabulary: Vocabulary,
  seconds: number,
  database?: string,
  extras?: SearchExtras,
): Promise<void> {
  await runLoad(server, route, target, vocabulary, 4, seconds, 1, database, extras);
}
