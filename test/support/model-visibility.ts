/**
 * An in-memory model of CONTRACT section 3 ("who sees what") and of the owner-only mutations of
 * section 5, written from the contract text and NOT from src/: the isolation suite cross-checks
 * its hand-written expectations against it and the property test compares the real service to it.
 * Keep it free of imports from src/ so a bug there cannot leak into the expectations.
 */

export type Visibility = 'workspace' | 'agent_only' | 'restricted';

export type ModelAgentScope = { kind: 'all' } | { kind: 'self' } | { kind: 'others' } | { kind: 'agents'; agentIds: readonly string[] };

export type ModelCaller =
  | { kind: 'user'; userId: string }
  | { kind: 'workspace'; userId: string; workspaceId: string; agentId: string; agentScope: ModelAgentScope };

export interface ModelRow {
  id: string;
  userId: string;
  /** null: a user-scope row (then agentId and visibility are null too). */
  workspaceId: string | null;
  agentId: string | null;
  /** null: a legacy workspace row written before visibility existed. */
  visibility: Visibility | null;
  /** Agents holding a grant on this row (meaningful while it is `restricted`). */
  grants: Set<string>;
  /** false once soft-deleted or superseded. */
  live: boolean;
  /** true once past its expires_at (CONTRACT section 12): hidden from reads, still live for its owner's changes. */
  expired: boolean;
  /** How many versions the row has had (1 at creation, +1 per change): its history's length. */
  versions: number;
}

const same = (a: string | null, b: string | null): boolean => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

/** Visibility alone (section 3, first list), without the caller's agent_scope. */
function visibilityAllows(caller: Extract<ModelCaller, { kind: 'workspace' }>, row: ModelRow): boolean {
  switch (row.visibility) {
    case null:
    case 'workspace':
      return true;
    case 'agent_only':
      return same(row.agentId, caller.agentId);
    case 'restricted':
      return same(row.agentId, caller.agentId) || [...row.grants].some((g) => same(g, caller.agentId));
  }
}

/** agent_scope (section 3, second list): narrows, never widens. */
function agentScopeAllows(caller: Extract<ModelCaller, { kind: 'workspace' }>, row: ModelRow): boolean {
  const scope = caller.agentScope;
  switch (scope.kind) {
    case 'all':
      return true;
    case 'self':
      return same(row.agentId, caller.agentId);
    case 'others':
      // IS DISTINCT FROM: a row with no owner is "someone else's"
      return !same(row.agentId, caller.agentId);
    case 'agents':
      return scope.agentIds.some((id) => same(row.agentId, id));
  }
}

/**
 * Would a read (list, get, expand, search) by `caller` return `row`? `includeExpired`: get and
 * list with include_expired=true (CONTRACT section 12).
 */
export function isVisible(caller: ModelCaller, row: ModelRow, includeExpired = false): boolean {
  if (!row.live || row.userId !== caller.userId) return false;
  if (row.expired && !includeExpired) return false;
  if (caller.kind === 'user') return row.workspaceId === null;
  return same(row.workspaceId, caller.workspaceId) && visibilityAllows(caller, row) && agentScopeAllows(caller, row);
}

export function visibleRows(caller: ModelCaller, rows: Iterable<ModelRow>, includeExpired = false): ModelRow[] {
  return [...rows].filter((row) => isVisible(caller, row, includeExpired));
}

/**
 * Would GET /v1/memories/:id/history answer 200? The read rule of the memory (agent_scope
 * included), whatever its state: deleted, superseded and expired memories keep their history
 * for whoever could see them (CONTRACT section 12).
 */
export function historyVisible(caller: ModelCaller, row: ModelRow | undefined): boolean {
  return row !== undefined && isVisible(caller, { ...row, live: true, expired: false });
}

type WorkspaceCaller = Extract<ModelCaller, { kind: 'workspace' }>;

/** Writes that target an existing row see it with agent_scope `all`. */
const writerView = (caller: WorkspaceCaller): WorkspaceCaller => ({ ...caller, agentScope: { kind: 'all' } });

/**
 * The shared decision of every owner-only mutation (PATCH, grants): 404 when the caller cannot see
 * the row (or it does not exist), 403 when it sees a row it does not own, else 'owner'.
 */
export function ownership(caller: WorkspaceCaller, row: ModelRow | undefined): 404 | 403 | 'owner' {
  if (!row || !isVisible(writerView(caller), row, true)) return 404;
  return same(row.agentId, caller.agentId) ? 'owner' : 403;
}

/**
 * The owner of a memory for PATCH (CONTRACT section 12): in a workspace as ownership(); in user
 * scope the user owns every live row of its personal memory (expired ones included).
 */
export function patchOwnership(caller: ModelCaller, row: ModelRow | undefined): 404 | 403 | 'owner' {
  if (caller.kind === 'workspace') return ownership(caller, row);
  return row !== undefined && isVisible(caller, row, true) ? 'owner' : 404;
}

/** The rows of one test world, with the mutations of CONTRACT section 5 and their statuses. */
export class VisibilityModel {
  readonly rows = new Map<string, ModelRow>();

  add(
    row: Omit<ModelRow, 'grants' | 'live' | 'expired' | 'versions'> & Partial<Pick<ModelRow, 'grants' | 'live' | 'expired' | 'versions'>>,
  ): ModelRow {
    const full: ModelRow = { grants: new Set(), live: true, expired: false, versions: 1, ...row };
    this.rows.set(full.id, full);
    return full;
  }

  visible(caller: ModelCaller, includeExpired = false): ModelRow[] {
    return visibleRows(caller, this.rows.values(), includeExpired);
  }

  /** PATCH /v1/memories/:id with a visibility: 200 / 403 / 404. Leaving `restricted` drops the grants. */
  changeVisibility(caller: WorkspaceCaller, id: string, visibility: Visibility): 200 | 403 | 404 {
    const row = this.rows.get(id);
    const who = ownership(caller, row);
    if (who !== 'owner') return who;
    row!.visibility = visibility;
    if (visibility !== 'restricted') row!.grants.clear();
    row!.versions++;
    return 200;
  }

  /** PATCH /v1/memories/:id with new content (CONTRACT section 12): 200 / 403 / 404, one more version. */
  edit(caller: ModelCaller, id: string): 200 | 403 | 404 {
    const row = this.rows.get(id);
    const who = patchOwnership(caller, row);
    if (who !== 'owner') return who;
    row!.versions++;
    return 200;
  }

  /** PATCH /v1/memories/:id with expires_at in the past (`expire`) or null (`restore`). */
  setExpiry(caller: ModelCaller, id: string, expired: boolean): 200 | 403 | 404 {
    const row = this.rows.get(id);
    const who = patchOwnership(caller, row);
    if (who !== 'owner') return who;
    row!.expired = expired;
    row!.versions++;
    return 200;
  }

  /** POST /v1/memories/:id/grants: 201 new / 200 repeat / 403 / 404 / 409 not restricted. */
  grant(caller: WorkspaceCaller, id: string, grantee: string): 200 | 201 | 403 | 404 | 409 {
    const row = this.rows.get(id);
    const who = ownership(caller, row);
    if (who !== 'owner') return who;
    if (row!.visibility !== 'restricted') return 409;
    const key = grantee.toLowerCase();
    if (row!.grants.has(key)) return 200;
    row!.grants.add(key);
    return 201;
  }

  /** GET /v1/memories/:id/grants: the grantees (lower-case, sorted) for the owner, else 403 / 404. */
  listGrants(caller: WorkspaceCaller, id: string): { status: 200; grantees: string[] } | { status: 403 | 404 } {
    const row = this.rows.get(id);
    const who = ownership(caller, row);
    if (who !== 'owner') return { status: who };
    return { status: 200, grantees: [...row!.grants].sort() };
  }

  /** DELETE /v1/memories/:id/grants/:grantee: 200 / 403 / 404 (row or grant missing). */
  revoke(caller: WorkspaceCaller, id: string, grantee: string): 200 | 403 | 404 {
    const row = this.rows.get(id);
    const who = ownership(caller, row);
    if (who !== 'owner') return who;
    return row!.grants.delete(grantee.toLowerCase()) ? 200 : 404;
  }

  /**
   * DELETE /v1/memories/:id: user scope always 200 and only ever touches the caller's own
   * user-scope row; workspace scope follows the ingest mutation rule (issue 20, finding 8): 200
   * for a visible row that is the caller's own or open to the whole workspace (`workspace` or
   * NULL), 403 for a visible row it may not change (another agent's restricted row read through
   * a grant), else 404.
   */
  delete(caller: ModelCaller, id: string): 200 | 403 | 404 {
    const row = this.rows.get(id);
    const target = caller.kind === 'workspace' ? writerView(caller) : caller;
    const seen = row !== undefined && isVisible(target, row);
    const mayChange =
      seen && (caller.kind === 'user' || same(row.agentId, caller.agentId) || row.visibility === null || row.visibility === 'workspace');
    if (mayChange) {
      row.live = false;
      row.versions++;
    }
    if (caller.kind === 'user') return 200;
    return mayChange ? 200 : seen ? 403 : 404;
  }
}
