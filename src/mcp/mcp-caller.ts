import type { Request } from 'express';

import { actorOf, principalOf, type Actor, type Principal } from '../common/identity/principal';
import { bindScopeToPrincipal } from '../common/scope/bind-scope';
import type { MemoryScope } from '../common/scope/memory-scope';
import { parseMemoryScope, type RawScopeInput } from '../common/scope/parse-memory-scope';

/** The identity headers of /mcp without a key (AUTH_MODE=off, or a service key): CONTRACT section 11. */
export const MCP_SCOPE_HEADERS = {
  user_id: 'x-atrium-user-id',
  workspace_id: 'x-atrium-workspace-id',
  agent_id: 'x-atrium-agent-id',
} as const;

/** Who is asking over one /mcp request: the scope the tools act in, and the actor of its changes. */
export interface McpCaller {
  /** The scope parameters as bound to the key: recall adds `agent_scope` and parses again. */
  raw: RawScopeInput;
  scope: MemoryScope;
  actor: Actor;
  /** What the caller may read of lessons (another agent's lesson text is withheld from an agent key). */
  principal: Principal;
}

/**
 * The caller of an /mcp request, from the connection only: the API key the AuthGuard accepted
 * (its user, workspace and agent), or without a key the X-Atrium-* headers. Either way through
 * the same binding and the one parser as every memory route, so a workspace without an agent
 * is 400 `agent_id is required for workspace queries` and an id other than the key's is 403,
 * before any MCP message is read. No tool argument can change it.
 */
export function mcpCallerOf(req: Request): McpCaller {
  const raw: RawScopeInput = {};
  for (const [field, header] of Object.entries(MCP_SCOPE_HEADERS) as [keyof typeof MCP_SCOPE_HEADERS, string][]) {
    const value = req.headers[header];
    if (value !== undefined) raw[field] = value;
  }
  const principal = principalOf(req);
  const bound = bindScopeToPrincipal(raw, principal);
  return { raw: bound, scope: parseMemoryScope(bound), actor: actorOf(req), principal };
}
