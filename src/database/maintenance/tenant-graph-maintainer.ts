import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Client } from 'pg';

import { ExpiringSet } from '../../common/expiring-set';
import type { AppConfig } from '../../env/app-config';
import { DATABASE_TARGET, type DatabaseTarget } from '../database-target';
import { existingTenantGraphs, reconcileTenantGraphs, tenantGraphName, type ReconcileResult, type TenantScope } from './tenant-graphs';

/** A scope found large by a search triggers a pass this soon (several such scopes share it). */
const ON_DEMAND_DELAY_MS = 5_000;
/** A pass gives up on a database that does not answer within this time (it tries again at the next one). */
const CONNECT_TIMEOUT_MS = 5_000;
/** A large scope that did not get a graph (under the threshold) does not trigger another pass for this long. */
const RECHECK_MS = 10 * 60_000;

/**
 * Keeps the tenant graphs (tenant-graphs.ts) in line with the data, on PostgreSQL: a pass
 * every TENANT_GRAPH_INTERVAL_S, and one a few seconds after a search first finds a scope
 * above the exact-search limit that has no graph yet. A pass runs on a direct connection of
 * its own (never the request pool), one at a time per instance and, through an advisory
 * lock, one at a time across instances. Searches never wait for it: until a scope's graph
 * is built its HNSW statement gets an exact plan on PostgreSQL, which keeps no graph over a
 * whole partition (migration 1763700500000).
 */
@Injectable()
export class TenantGraphMaintainer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TenantGraphs');
  private readonly minRows: number;
  private readonly intervalMs: number;
  private readonly buildMemory: string;
  /** Names of the graphs the last pass left in place. */
  private graphs = new Set<string>();
  /** Scopes a pass looked at and left without a graph (under the threshold): no new trigger for a while. */
  private readonly declined = new ExpiringSet(RECHECK_MS, 10_000);
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  /** The pass that follows the last import (importEnded): pushed back by each import that ends before it. */
  private afterImport: NodeJS.Timeout | null = null;
  /** An import into a scope defers its graph until this many seconds after its last write (TENANT_GRAPH_IMPORT_QUIET_S). */
  private readonly importQuietS: number;
  private running: Promise<void> | null = null;
  private loading: Promise<void> | null = null;
  private client: Client | null = null;
  private stopping = false;
  /** The first pass runs this long after boot (TENANT_GRAPH_FIRST_PASS_S), so that start-up and readiness come first. */
  private readonly firstPassMs: number;
  /** SEARCH_EXACT_SCOPE_LIMIT: larger scopes are searched through their graph, or exactly without one. */
  private readonly exactScopeLimit: number;

  constructor(
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    @Inject(ConfigService) app: AppConfig,
  ) {
    this.minRows = app.get('TENANT_GRAPH_MIN_ROWS', { infer: true });
    this.intervalMs = app.get('TENANT_GRAPH_INTERVAL_S', { infer: true }) * 1000;
    this.firstPassMs = app.get('TENANT_GRAPH_FIRST_PASS_S', { infer: true }) * 1000;
    this.buildMemory = app.get('TENANT_GRAPH_BUILD_MEMORY', { infer: true });
    this.importQuietS = app.get('TENANT_GRAPH_IMPORT_QUIET_S', { infer: true });
    this.exactScopeLimit = app.get('SEARCH_EXACT_SCOPE_LIMIT', { infer: true });
  }

  /** Whether this instance maintains tenant graphs (PostgreSQL, a threshold and an interval set). */
  get enabled(): boolean {
    return this.target.kind === 'postgres' && this.minRows > 0 && this.intervalMs > 0;
  }

  /**
   * Whether `scope` had a graph of its own at the last pass (or at boot). Searches use it only
   * to size their over-fetch (VectorSearch): a stale answer costs a little speed or recall,
   * never a wrong row, since the statement's WHERE decides what is seen.
   */
  hasGraph(scope: TenantScope): boolean {
    return this.graphs.size > 0 && this.graphs.has(tenantGraphName(scope));
  }

  /**
   * On PostgreSQL a scope over the exact limit without a graph of its own is ranked exactly
   * (there is no partition-wide graph: migration 1763700500000). With a threshold of 0, or one
   * above the exact limit, some large scopes will never get a graph: said once at boot.
   */
  exactScopesWarning(): string | null {
    if (this.target.kind !== 'postgres') return null;
    if (this.minRows === 0) {
      return `TENANT_GRAPH_MIN_ROWS=0: scopes over SEARCH_EXACT_SCOPE_LIMIT (${this.exactScopeLimit}) get no HNSW graph and are searched exactly`;
    }
    if (this.minRows > this.exactScopeLimit) {
      return `scopes between SEARCH_EXACT_SCOPE_LIMIT (${this.exactScopeLimit}) and TENANT_GRAPH_MIN_ROWS (${this.minRows}) rows get no HNSW graph and are searched exactly`;
    }
    return null;
  }

  onApplicationBootstrap(): void {
    const warning = this.exactScopesWarning();
    if (warning) this.logger.warn(warning);
    if (this.target.kind !== 'postgres' || this.minRows === 0) return;
    // The graphs already there (also with the interval at 0, where `npm run db:tenant-graphs`
    // builds them), so searches know them before the first pass.
    // Not awaited: boot never waits on it (a search before it lands only over-fetches more).
    this.loading = this.loadGraphs().catch((error: Error) => this.logger.warn(`could not list the tenant graphs: ${error.message}`));
    if (!this.enabled) return;
    this.timer = setTimeout(() => this.periodic(), this.firstPassMs);
    this.timer.unref();
  }

  private async loadGraphs(): Promise<void> {
    if (this.target.kind !== 'postgres') return;
    const client = directClient(this.target.directUrl, this.logger);
    await client.connect();
    try {
      const graphs = await existingTenantGraphs(client);
      this.graphs = new Set([...graphs.values()].filter((g) => g.valid).map((g) => g.name));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * A search found `scope` above the exact-search limit. If it has no graph and no pass
   * declined it lately, a pass runs shortly (it counts the scope's live rows and builds the
   * graph when they reach TENANT_GRAPH_MIN_ROWS).
   */
  noteLargeScope(scope: TenantScope): void {
    if (!this.enabled || this.stopping) return;
    const name = tenantGraphName(scope);
    if (this.graphs.has(name) || this.declined.has(name)) return;
    this.declined.add(name);
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      // A pass already under way may have counted before this scope grew: run one after it.
      void (this.running ?? Promise.resolve()).then(() => this.pass('a search found a large scope without a graph'));
    }, ON_DEMAND_DELAY_MS);
    this.soon.unref();
  }

  /**
   * An import into `scopes` ended. A pass deferred their graphs while it wrote (see
   * importedLately in tenant-graphs.ts), so one runs once the quiet time has passed after its
   * last write, and builds the graph of each scope the import made large, in one CREATE INDEX
   * over its rows. The parts of `npm run import` are one import each: each part that ends
   * pushes the pass back, so it runs once, after the last.
   */
  importEnded(scopes: Iterable<TenantScope>): void {
    if (!this.enabled || this.stopping || this.importQuietS === 0) return;
    const missing = [...scopes].filter((scope) => !this.graphs.has(tenantGraphName(scope)));
    if (missing.length === 0) return;
    if (this.afterImport) clearTimeout(this.afterImport);
    this.afterImport = setTimeout(
      () => {
        this.afterImport = null;
        void (this.running ?? Promise.resolve()).then(() => this.pass('an import ended'));
      },
      this.importQuietS * 1000 + ON_DEMAND_DELAY_MS,
    );
    this.afterImport.unref();
  }

  /** One pass now (the CLI and tests); resolves when it is done. */
  async pass(reason: string): Promise<ReconcileResult | null> {
    if (this.running) {
      await this.running;
      return null;
    }
    let result: ReconcileResult | null = null;
    this.running = (async () => {
      try {
        result = await this.reconcile(reason);
      } catch (error) {
        if (!this.stopping) this.logger.warn(`tenant graph pass failed (${reason}): ${(error as Error).message}`);
      } finally {
        this.running = null;
      }
    })();
    await this.running;
    return result;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of [this.timer, this.soon, this.afterImport]) if (timer) clearTimeout(timer);
    const client = this.client;
    if (client && this.running) await cancelBackend(this.target, client);
    await Promise.all([this.running, this.loading]);
  }

  private periodic(): void {
    void this.pass('scheduled').finally(() => {
      if (this.stopping) return;
      this.timer = setTimeout(() => this.periodic(), this.intervalMs);
      this.timer.unref();
    });
  }

  private async reconcile(reason: string): Promise<ReconcileResult | null> {
    if (this.target.kind !== 'postgres') return null;
    const client = directClient(this.target.directUrl, this.logger);
    await client.connect();
    this.client = client;
    try {
      const result = await reconcileTenantGraphs(client, {
        minRows: this.minRows,
        maintenanceWorkMem: this.buildMemory,
        stopped: () => this.stopping,
        importQuietS: this.importQuietS,
        onChange: (change) => {
          const scope =
            change.scope.workspaceId === null
              ? `user ${change.scope.userId}`
              : `workspace ${change.scope.workspaceId} of user ${change.scope.userId}`;
          if (change.action === 'build')
            this.logger.log(`building ${change.name} for ${scope} (${change.liveRows} live memories; ${reason})`);
          if (change.action === 'built') this.logger.log(`built ${change.name} in ${((change.ms ?? 0) / 1000).toFixed(1)} s`);
          if (change.action === 'drop') this.logger.log(`dropping ${change.name} (${scope})`);
        },
      });
      for (const name of result.deferred) this.logger.log(`${name} deferred: an import into its scope is under way (${reason})`);
      if (result.ran) this.graphs = new Set([...result.kept, ...result.built]);
      return result;
    } finally {
      this.client = null;
      await client.end().catch(() => undefined);
    }
  }
}

/** A connection of the maintainer's own, straight to the server (DATABASE_DIRECT_URL), never from the request pool. */
function directClient(url: string, logger: Logger | null): Client {
  const client = new Client({
    connectionString: url,
    application_name: 'atrium-tenant-graphs',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on('error', (error) => logger?.warn(`tenant graph connection error: ${error.message}`));
  return client;
}

/** Cancels what `client`'s backend is running (a build at shutdown): it leaves an invalid index, which the next pass drops. */
async function cancelBackend(target: DatabaseTarget, client: Client): Promise<void> {
  if (target.kind !== 'postgres') return;
  const pid = (client as Client & { processID?: number }).processID;
  if (!pid) return;
  const canceller = directClient(target.directUrl, null);
  try {
    await canceller.connect();
    await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch {
    // The pass ends by itself; shutdown only waits longer.
  } finally {
    await canceller.end().catch(() => undefined);
  }
}
