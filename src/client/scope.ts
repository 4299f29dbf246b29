/**
 * Who is asking. The unions make the service's scope rules compile-time errors here: a
 * workspace call without `agentId` (400 on the server), or `agentScope` outside a workspace.
 */

/** `all` (default), `self`, `others`, one agent id, or a list of agent ids. Narrows, never widens, what visibility allows. */
// `string & {}` (not plain `string`) keeps the three literals in editor completion.
export type AgentScopeInput = 'all' | 'self' | 'others' | (string & {}) | readonly string[];

/** A user's personal memories (never a workspace row). */
export interface UserScopeInput {
  userId: string;
  workspaceId?: never;
  agentId?: never;
  agentScope?: never;
}

/** A workspace of that user, as the calling agent. */
export interface WorkspaceScopeInput {
  userId: string;
  workspaceId: string;
  agentId: string;
  agentScope?: AgentScopeInput;
}

/** With an API key (the client's `apiKey`, AUTH_MODE=api_key): no ids, the key says who is asking. */
export interface KeyScopeInput {
  userId?: never;
  workspaceId?: never;
  agentId?: never;
  agentScope?: AgentScopeInput;
}

/** Reads: search, expand, list, get, delete. */
export type ScopeInput = UserScopeInput | WorkspaceScopeInput | KeyScopeInput;

/** Writes belong to the calling agent, so they take no agentScope. */
export type WriterScopeInput = UserScopeInput | Omit<WorkspaceScopeInput, 'agentScope'> | Omit<KeyScopeInput, 'agentScope'>;

/** Visibility changes and grants: only the owning agent, only in a workspace. */
export type OwnerScopeInput = Omit<WorkspaceScopeInput, 'agentScope'> | Omit<KeyScopeInput, 'agentScope'>;

/** The scope a search ran under, as the service echoes it. */
export type ResolvedScope =
  | { kind: 'user'; userId: string }
  | { kind: 'workspace'; userId: string; workspaceId: string; agentId: string; agentScope: string | string[] };
