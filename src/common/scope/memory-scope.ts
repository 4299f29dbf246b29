/**
 * Who is asking, and over which memories: the security boundary of every memory route.
 * Built only by parseMemoryScope(); passed as the first argument down to the repositories,
 * where database/access/visibility.ts turns it into SQL.
 */
export type AgentScope =
  | { kind: 'all' }
  | { kind: 'self' }
  | { kind: 'others' }
  /** Memories owned by any of these agents (one id or a list on the wire). */
  | { kind: 'agents'; agentIds: readonly string[] };

export interface UserScope {
  kind: 'user';
  userId: string;
}

export interface WorkspaceScope {
  kind: 'workspace';
  userId: string;
  workspaceId: string;
  /** The calling agent; visibility is decided for this id. */
  agentId: string;
  /** Whose memories are wanted; narrows, never widens, what visibility allows. */
  agentScope: AgentScope;
}

export type MemoryScope = UserScope | WorkspaceScope;

/** The scope as echoed in search responses (CONTRACT section 5). */
export function scopeToWire(scope: MemoryScope): Record<string, unknown> {
  switch (scope.kind) {
    case 'user':
      return { kind: 'user', user_id: scope.userId };
    case 'workspace':
      return {
        kind: 'workspace',
        user_id: scope.userId,
        workspace_id: scope.workspaceId,
        agent_id: scope.agentId,
        agent_scope: agentScopeToWire(scope.agentScope),
      };
  }
}

export function agentScopeToWire(agentScope: AgentScope): string | string[] {
  switch (agentScope.kind) {
    case 'all':
    case 'self':
    case 'others':
      return agentScope.kind;
    case 'agents':
      return agentScope.agentIds.length === 1 ? agentScope.agentIds[0] : [...agentScope.agentIds];
  }
}
