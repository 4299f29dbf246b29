/**
 * Who the benchmark asks as: callers for the load runs (small and large scopes, user and
 * workspace) and for recall (small, mid and large scopes; in workspaces, agent_scope all,
 * self and others). Visible rows and ids come from SQL through applyMemoryScope.
 */
import type { DataSource } from 'typeorm';

import type { AgentScope, MemoryScope } from '../src/common/scope/memory-scope';
import { applyMemoryScope } from '../src/database/access/visibility';
import { MemoryEntity } from '../src/database/entities/memory.entity';
import { DEFAULT_VECTOR_SEARCH_TUNING } from '../src/retrieval/vector-search';
import { queryText, type CorpusPlan, type UserPlan, type WorkspacePlan } from './corpus';
import type { Caller, SizeClass, Target } from './load';
import { Rng } from './random';
import { countVisible } from './recall';

const EXACT_SCOPE_LIMIT = DEFAULT_VECTOR_SEARCH_TUNING.exactScopeLimit;

export interface ScopeChoice {
  user: UserPlan;
  workspace?: WorkspacePlan;
  agentId?: string;
  agentScope: AgentScope;
  /** Rows in the scope before visibility (personal rows, or the workspace's rows). */
  rows: number;
}

export const toScope = (c: ScopeChoice): MemoryScope =>
  c.workspace
    ? { kind: 'workspace', userId: c.user.userId, workspaceId: c.workspace.id, agentId: c.agentId as string, agentScope: c.agentScope }
    : { kind: 'user', userId: c.user.userId };

export function toWire(c: ScopeChoice): Record<string, unknown> {
  if (!c.workspace) return { user_id: c.user.userId };
  const agentScope = c.agentScope.kind === 'agents' ? [...c.agentScope.agentIds] : c.agentScope.kind;
  return { user_id: c.user.userId, workspace_id: c.workspace.id, agent_id: c.agentId, agent_scope: agentScope };
}

function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

export function userScopes(plan: CorpusPlan, min: number, max: number, n: number): ScopeChoice[] {
  const users = plan.users.filter((u) => u.personal >= min && u.personal < max).sort((a, b) => a.personal - b.personal);
  return spread(users, n).map((user) => ({ user, agentScope: { kind: 'all' }, rows: user.personal }));
}

export function workspaceScopes(
  plan: CorpusPlan,
  min: number,
  max: number,
  n: number,
  agentScope: AgentScope['kind'] = 'all',
): ScopeChoice[] {
  const all = plan.users.flatMap((user) => user.workspaces.map((workspace) => ({ user, workspace })));
  const inRange = all.filter((w) => w.workspace.size >= min && w.workspace.size < max).sort((a, b) => a.workspace.size - b.workspace.size);
  return spread(inRange, n).map(({ user, workspace }, i) => ({
    user,
    workspace,
    agentId: workspace.agents[i % workspace.agents.length],
    agentScope: { kind: agentScope } as AgentScope,
    rows: workspace.size,
  }));
}

export function largestUsers(plan: CorpusPlan, n: number): ScopeChoice[] {
  return [...plan.users]
    .sort((a, b) => b.personal - a.personal)
    .slice(0, n)
    .map((user) => ({ user, agentScope: { kind: 'all' }, rows: user.personal }));
}

export function largestWorkspaces(plan: CorpusPlan, n: number, agentScope: AgentScope['kind'] = 'all'): ScopeChoice[] {
  return plan.users
    .flatMap((user) => user.workspaces.map((workspace) => ({ user, workspace })))
    .sort((a, b) => b.workspace.size - a.workspace.size)
    .slice(0, n)
    .map(({ user, workspace }, i) => ({
      user,
      workspace,
      agentId: workspace.agents[(i + 1) % workspace.agents.length],
      agentScope: { kind: agentScope } as AgentScope,
      rows: workspace.size,
    }));
}

export function queriesFor(plan: CorpusPlan, user: UserPlan, n: number, seed: number): string[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => queryText(rng, plan.vocabulary, user));
}

async function visibleIds(ds: DataSource, scope: MemoryScope, n: number): Promise<string[]> {
  const rows = await applyMemoryScope(ds.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope, 'read')
    .select('m.id', 'id')
    .orderBy('md5(CAST(m.id AS text))')
    .limit(n)
    .getRawMany<{ id: string }>();
  return rows.map((r) => r.id);
}

export async function toCaller(ds: DataSource, plan: CorpusPlan, choice: ScopeChoice, seed: number): Promise<Caller> {
  const scope = toScope(choice);
  return {
    user: choice.user,
    workspaceId: choice.workspace?.id,
    agentId: choice.agentId,
    visibleRows: await countVisible(ds, scope),
    queries: queriesFor(plan, choice.user, 100, seed),
    ids: await visibleIds(ds, scope, 200),
  };
}

/** Load targets: user and workspace scopes, small (under 1,000 rows) and the largest. */
export async function loadTargets(ds: DataSource, plan: CorpusPlan): Promise<Target[]> {
  const choices: { scope: 'user' | 'workspace'; size: SizeClass; picks: ScopeChoice[] }[] = [
    { scope: 'user', size: 'small', picks: userScopes(plan, 20, 1000, 8) },
    { scope: 'user', size: 'large', picks: largestUsers(plan, 2) },
    { scope: 'workspace', size: 'small', picks: workspaceScopes(plan, 20, 1000, 8) },
    { scope: 'workspace', size: 'large', picks: largestWorkspaces(plan, 2) },
  ];
  const targets: Target[] = [];
  for (const [i, c] of choices.entries()) {
    if (c.picks.length === 0) continue;
    const callers = [];
    for (const [j, pick] of c.picks.entries()) callers.push(await toCaller(ds, plan, pick, 1000 + i * 100 + j));
    targets.push({ scope: c.scope, size: c.size, callers });
  }
  return targets;
}

export interface RecallClass {
  label: string;
  picks: ScopeChoice[];
}

/** Recall classes: every scope size and, in workspaces, every agent_scope mix. */
export function recallClasses(plan: CorpusPlan): RecallClass[] {
  const mid = [EXACT_SCOPE_LIMIT / 2, EXACT_SCOPE_LIMIT * 4];
  const classes: RecallClass[] = [
    { label: 'user, small (<1k rows)', picks: userScopes(plan, 20, 1000, 5) },
    { label: `user, mid (${mid[0]}-${mid[1]} rows)`, picks: userScopes(plan, mid[0], mid[1], 5) },
    { label: 'user, largest', picks: largestUsers(plan, 3) },
  ];
  for (const mix of ['all', 'self', 'others'] as const) {
    classes.push(
      { label: `workspace agent_scope=${mix}, small (<1k rows)`, picks: workspaceScopes(plan, 20, 1000, 5, mix) },
      { label: `workspace agent_scope=${mix}, mid (${mid[0]}-${mid[1]} rows)`, picks: workspaceScopes(plan, mid[0], mid[1], 5, mix) },
      { label: `workspace agent_scope=${mix}, largest`, picks: largestWorkspaces(plan, 3, mix) },
    );
  }
  return classes.filter((c) => c.picks.length > 0);
}

/** Scopes of growing size for the exact-versus-HNSW crossover. */
export function crossoverScopes(plan: CorpusPlan): ScopeChoice[] {
  const sizes = [250, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000];
  const picks: ScopeChoice[] = [];
  const users = [...plan.users].sort((a, b) => a.personal - b.personal);
  const workspaces = plan.users.flatMap((user) => user.workspaces.map((workspace) => ({ user, workspace })));
  for (const size of sizes) {
    const user = users.find((u) => u.personal >= size && u.personal < size * 2);
    if (user) picks.push({ user, agentScope: { kind: 'all' }, rows: user.personal });
    const ws = workspaces.find((w) => w.workspace.size >= size && w.workspace.size < size * 2);
    if (ws)
      picks.push({
        user: ws.user,
        workspace: ws.workspace,
        agentId: ws.workspace.agents[0],
        agentScope: { kind: 'all' },
        rows: ws.workspace.size,
      });
  }
  return picks;
}

export function describeScope(c: ScopeChoice): string {
  return c.workspace ? `workspace (${c.workspace.agents.length} agents, agent_scope=${c.agentScope.kind})` : 'user';
}
