import { assertNever, DomainError } from '../errors/domain-error';
import type { Principal } from '../identity/principal';
import type { RawScopeInput } from './parse-memory-scope';

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const mismatch = (): never => {
  throw new DomainError('SCOPE_MISMATCH');
};

/** A given id must equal the key's; UUIDs compare case-insensitively, user ids exactly. */
function requireSame(given: unknown, bound: string, uuid: boolean): void {
  if (!present(given)) return;
  if (typeof given !== 'string') mismatch();
  const same = uuid ? (given as string).toLowerCase() === bound : given === bound;
  if (!same) mismatch();
}

/**
 * The scope parameters of a memory route, bound to the caller's key before the one parser
 * (parseMemoryScope) sees them, so the MemoryScope that reaches the services is the key's:
 * parameters left out are filled in from the key; given ones must equal the key's, else 403.
 * - open (AUTH_MODE=off) and service keys: the parameters as they are.
 * - user key: its user, user scope only (a workspace_id is 403).
 * - agent key: its user, workspace and agent (there is no user scope for it: a user_id
 *   without a workspace_id, which asks for user scope, is 403).
 * agent_scope is left alone: it narrows what visibility allows and never widens it.
 */
export function bindScopeToPrincipal(raw: RawScopeInput, principal: Principal): RawScopeInput {
  switch (principal.kind) {
    case 'open':
    case 'service':
      return raw;
    case 'user':
      requireSame(raw.user_id, principal.userId, false);
      if (present(raw.workspace_id)) mismatch();
      return { ...raw, user_id: principal.userId };
    case 'agent':
      requireSame(raw.user_id, principal.userId, false);
      // A user_id without a workspace_id asks for user scope (spec), which an agent key never has
      // (CONTRACT section 10): 403, never a silent re-scope to the key's workspace.
      if (present(raw.user_id) && !present(raw.workspace_id)) mismatch();
      requireSame(raw.workspace_id, principal.workspaceId, true);
      requireSame(raw.agent_id, principal.agentId, true);
      return { ...raw, user_id: principal.userId, workspace_id: principal.workspaceId, agent_id: principal.agentId };
    default:
      return assertNever(principal);
  }
}

/**
 * What a user-level route (lessons, agents' trust) does for its user:
 * - `read`: list lessons, lesson stats, read a trust level;
 * - `report`: report a lesson (an agent may add protection for its user);
 * - `manage`: retire a lesson or set a trust level; never through an agent key, so a
 *   prompt-injected agent cannot switch off the lessons that block it or raise its own trust.
 */
export type UserRouteAccess = 'read' | 'report' | 'manage';

const USER_ID_REQUIRED = 'user_id (string) is required';

/**
 * The user a lessons or agents route acts for: the request's user_id, bound to the key like
 * bindScopeToPrincipal (left out: the key's; different: 403). Without a key user_id is required.
 */
export function userIdForPrincipal(principal: Principal, given: string | null | undefined, access: UserRouteAccess): string {
  switch (principal.kind) {
    case 'open':
    case 'service':
      // JSON null passes @IsOptional() like a missing field, and means the same: not given.
      if (!present(given)) throw new DomainError('VALIDATION_FAILED', USER_ID_REQUIRED);
      return given as string;
    case 'user':
      requireSame(given, principal.userId, false);
      return principal.userId;
    case 'agent':
      if (access === 'manage') mismatch();
      requireSame(given, principal.userId, false);
      return principal.userId;
    default:
      return assertNever(principal);
  }
}

/** The agent whose trust level a route reads: an agent key reads only its own. */
export function agentIdForPrincipal(principal: Principal, given: string): string {
  if (principal.kind === 'agent') requireSame(given, principal.agentId, true);
  return given;
}
