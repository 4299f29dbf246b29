import { createHash } from 'node:crypto';

import { Client, escapeIdentifier, escapeLiteral } from 'pg';

import type { MemoryScope } from '../../common/scope/memory-scope';
import { tenantRowConditions } from '../access/visibility';

/**
 * Tenant graphs: a dedicated HNSW graph for each very large scope.
 *
 * A user's memories live in one hash partition, and that partition's HNSW graph also holds
 * every other user hashed there and all of this user's other scopes. A large scope's search
 * therefore walks a graph in which its own rows are a minority: the filter throws most of what
 * the walk finds away, which costs time and, on the largest workspaces, recall (the before and
 * after are in docs/benchmarks.md, "Round two, large scopes").
 *
 * For a scope with at least `minRows` live memories (a user's personal memories, or one
 * workspace), this builds a partial HNSW index on the user's partition whose predicate is
 * exactly the scope's rows:
 *
 *   user_id = '<user>' AND workspace_id IS NULL|= '<workspace>' AND deleted_at IS NULL AND superseded_at IS NULL
 *
 * Every read of that scope carries those same conditions (both are written by
 * tenantRowConditions in access/visibility.ts), so when the statement is planned with its
 * values (the HNSW plan runs with plan_cache_mode = force_custom_plan) PostgreSQL proves the
 * predicate and walks the small graph, where only the visibility conditions of a workspace
 * still filter. Visibility is unchanged: the index only
 * decides which rows the walk meets first; the statement's WHERE still decides what is seen.
 *
 * Nothing moves: the rows stay where they are, and a graph that is no longer worth its upkeep
 * (its scope fell under half of `minRows`) is dropped. There is no graph over a whole partition
 * on PostgreSQL (migration 1763700500000: every write paid for it, and only a large scope waiting
 * for its own graph read it): a scope without a graph is ranked exactly. Builds run
 * `CREATE INDEX CONCURRENTLY` on a direct connection (not through a pooler), one instance at a
 * time (an advisory lock), and writes go on meanwhile. PostgreSQL only: the embedded database
 * is for scopes far below this size.
 */

/** Name prefix of every tenant graph (an index on a memories partition). */
export const TENANT_GRAPH_PREFIX = 'memories_tg_';
/** Advisory lock held by the instance that reconciles the graphs. */
const RECONCILE_LOCK = 7_163_700_160;
/**
 * The candidate list while a graph is built (pgvector's default is 64). A larger one links
 * each row to better neighbours, so a search at the same hnsw.ef_search finds more of the true
 * ones; it costs build time only, in the background. docs/scaling.md has the recall behind it.
 */
export const TENANT_GRAPH_EF_CONSTRUCTION = 128;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TenantScope {
  userId: string;
  /** null: the user's personal memories (user scope). */
  workspaceId: string | null;
}

export interface LargeScope extends TenantScope {
  liveRows: number;
}

export interface TenantGraph {
  name: string;
  partition: string;
  /** False after a concurrent build failed half-way (dropped and rebuilt by the next pass). */
  valid: boolean;
}

export interface ReconcileOptions {
  /** Scopes with at least this many live rows get a graph; 0 turns tenant graphs off (and drops them). */
  minRows: number;
  /** maintenance_work_mem for a build (an HNSW build in memory is several times faster). */
  maintenanceWorkMem?: string;
  /** Called before each build and drop, for logs. */
  onChange?: (change: ReconcileChange) => void;
  /** Returns true when the reconciliation should stop before its next build (shutdown). */
  stopped?: () => boolean;
  /**
   * A scope into which an import stored rows within this many seconds gets no graph in this
   * pass (it is built after the import, from the bulk rows; see importedLately). 0: no deferral.
   */
  importQuietS?: number;
}

export interface ReconcileChange {
  action: 'build' | 'built' | 'drop';
  name: string;
  scope: TenantScope;
  liveRows?: number;
  ms?: number;
}

export interface ReconcileResult {
  /** False when another instance held the lock: nothing was done. */
  ran: boolean;
  built: string[];
  dropped: string[];
  kept: string[];
  /** Graphs wanted but not built in this pass: an import into their scope was under way. */
  deferred: string[];
}

/** The rows a tenant graph would cover for a caller's scope: its user's personal memories, or its workspace. */
export function tenantScopeOf(scope: MemoryScope): TenantScope {
  return { userId: scope.userId, workspaceId: scope.kind === 'workspace' ? scope.workspaceId : null };
}

/** The graph's index name: a digest of the scope, so every instance derives the same one. */
export function tenantGraphName(scope: TenantScope): string {
  const digest = createHash('sha256')
    .update(`${scope.userId}\u0000${scope.workspaceId ?? ''}`)
    .digest('hex');
  return `${TENANT_GRAPH_PREFIX}${digest.slice(0, 40)}`;
}

/** The partial index predicate: exactly the scope's live rows (literals, escaped). */
export function tenantGraphPredicate(scope: TenantScope): string {
  if (scope.workspaceId !== null && !UUID.test(scope.workspaceId)) throw new Error(`not a workspace id: ${scope.workspaceId}`);
  // The same conditions as the visibility predicate's (tenantRowConditions), with literals.
  const { tenant, live } = tenantRowConditions((column) => column, {
    userId: escapeLiteral(scope.userId),
    workspaceId: scope.workspaceId === null ? null : `${escapeLiteral(scope.workspaceId)}::uuid`,
  });
  return [...tenant, ...live].join(' AND ');
}

/**
 * Scopes with at least `minRows` live memories. One pass over the scope columns (the scope
 * indexes cover them); about a second at 1M memories, so it runs every few minutes at most.
 */
export async function largeScopes(client: Client, minRows: number): Promise<LargeScope[]> {
  const { rows } = await client.query<{ user_id: string; workspace_id: string | null; live_rows: string }>(
    `SELECT user_id, workspace_id, count(*) AS live_rows
       FROM memories
      WHERE deleted_at IS NULL AND superseded_at IS NULL
      GROUP BY user_id, workspace_id
     HAVING count(*) >= $1`,
    [minRows],
  );
  return rows.map((r) => ({ userId: r.user_id, workspaceId: r.workspace_id, liveRows: Number(r.live_rows) }));
}

/** The tenant graphs that exist, by name. */
export async function existingTenantGraphs(client: Client): Promise<Map<string, TenantGraph>> {
  const { rows } = await client.query<{ name: string; partition: string; valid: boolean }>(
    `SELECT c.relname AS name, t.relname AS partition, i.indisvalid AS valid
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
      WHERE c.relname LIKE $1 AND c.relnamespace = current_schema()::regnamespace`,
    [`${TENANT_GRAPH_PREFIX.replace(/_/g, '\\_')}%`],
  );
  return new Map(rows.map((r) => [r.name, r]));
}

/**
 * Makes the tenant graphs match the data: builds one for each scope of at least `minRows`
 * live rows that has none (or whose build failed), drops those whose scope fell under half
 * of `minRows` (the margin keeps a scope near the line from being rebuilt over and over), and
 * keeps the rest. Runs on `client`, a direct session (CREATE INDEX CONCURRENTLY cannot run in
 * a transaction or through a transaction pooler), under an advisory lock so that one instance
 * does it at a time; returns `ran: false` when another holds it.
 */
export async function reconcileTenantGraphs(client: Client, options: ReconcileOptions): Promise<ReconcileResult> {
  const result: ReconcileResult = { ran: false, built: [], dropped: [], kept: [], deferred: [] };
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [RECONCILE_LOCK]);
  if (!rows[0].locked) return result;
  result.ran = true;
  try {
    const existing = await existingTenantGraphs(client);
    const keepFloor = Math.ceil(options.minRows / 2);
    const scopes = options.minRows > 0 ? await largeScopes(client, keepFloor) : [];
    const wanted = new Map<string, LargeScope>();
    for (const scope of scopes) {
      const name = tenantGraphName(scope);
      const graph = existing.get(name);
      if (scope.liveRows >= options.minRows || graph?.valid) wanted.set(name, scope);
    }
    for (const [name, graph] of existing) {
      if (wanted.has(name) && graph.valid) continue;
      options.onChange?.({ action: 'drop', name, scope: wanted.get(name) ?? { userId: '?', workspaceId: null } });
      await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${escapeIdentifier(name)}`);
      result.dropped.push(name);
    }
    // A build takes as long as it takes (tens of seconds for the largest scopes at 1M memories).
    await client.query("SELECT set_config('statement_timeout', '0', false)");
    if (options.maintenanceWorkMem)
      await client.query(`SELECT set_config('maintenance_work_mem', $1, false)`, [options.maintenanceWorkMem]);
    for (const [name, scope] of wanted) {
      if (existing.get(name)?.valid) {
        result.kept.push(name);
        continue;
      }
      if (options.stopped?.()) break;
      if (options.importQuietS && (await importedLately(client, scope, options.importQuietS))) {
        result.deferred.push(name);
        continue;
      }
      const partition = await partitionOf(client, scope.userId);
      if (partition === null) continue;
      options.onChange?.({ action: 'build', name, scope, liveRows: scope.liveRows });
      const started = Date.now();
      await client.query(
        `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${escapeIdentifier(name)} ON ${escapeIdentifier(partition)}` +
          ` USING hnsw (embedding vector_cosine_ops) WITH (ef_construction = ${TENANT_GRAPH_EF_CONSTRUCTION}) WHERE ${tenantGraphPredicate(scope)}`,
      );
      const scopeText = scope.workspaceId === null ? `user ${scope.userId}` : `user ${scope.userId}, workspace ${scope.workspaceId}`;
      await client.query(`COMMENT ON INDEX ${escapeIdentifier(name)} IS ${escapeLiteral(`tenant graph: ${scopeText}`)}`);
      options.onChange?.({ action: 'built', name, scope, liveRows: scope.liveRows, ms: Date.now() - started });
      result.built.push(name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [RECONCILE_LOCK]);
  }
}

/**
 * Whether an import stored rows in `scope` within the last `seconds` (its `memory.stored`
 * audit events, via import: every instance writes them, so this sees the imports of all).
 *
 * An import into a scope without a graph would otherwise see the graph built under it (the
 * scope passes `minRows` a few seconds in), after which every row it writes is inserted into
 * two HNSW graphs, one at a time: on PostgreSQL that doubled the cost of each batch. Built after
 * the import instead, the graph is one CREATE INDEX over the scope's rows, which builds the
 * graph in memory and costs a fraction of the inserts it replaces (docs/data.md, "Cost").
 * Searches meanwhile rank the scope's rows exactly, as they do before any graph exists.
 */
export async function importedLately(client: Client, scope: TenantScope, seconds: number): Promise<boolean> {
  const { rows } = await client.query<{ lately: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM audit_events
        WHERE user_id = $1 AND at > now() - make_interval(secs => $3)
          AND workspace_id IS NOT DISTINCT FROM $2::uuid
          AND action = 'memory.stored' AND detail->>'via' = 'import') AS lately`,
    [scope.userId, scope.workspaceId, seconds],
  );
  return rows[0].lately;
}

/** The partition that holds a user's memories (hash partitioning: one per user), or null without rows. */
async function partitionOf(client: Client, userId: string): Promise<string | null> {
  const { rows } = await client.query<{ partition: string }>(
    'SELECT c.relname AS partition FROM memories m JOIN pg_class c ON c.oid = m.tableoid WHERE m.user_id = $1 LIMIT 1',
    [userId],
  );
  return rows[0]?.partition ?? null;
}
