import { DomainError } from '../errors/domain-error';
import type { AgentScope, MemoryScope } from './memory-scope';

/** Raw request parameters: the query string on GET/DELETE, the JSON body on POST/PATCH. */
export interface RawScopeInput {
  user_id?: unknown;
  workspace_id?: unknown;
  agent_id?: unknown;
  agent_scope?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_USER_ID_LENGTH = 256;
export const MAX_AGENT_SCOPE_IDS = 100;

export const SCOPE_MESSAGES = {
  userId: 'user_id (string) is required',
  userIdTooLong: `user_id must be at most ${MAX_USER_ID_LENGTH} characters`,
  workspaceId: 'workspace_id must be a valid UUID',
  agentRequired: 'agent_id is required for workspace queries',
  agentId: 'agent_id must be a valid UUID',
  agentScope: 'agent_scope must be all, self, others, an agent id or a list of agent ids',
  agentScopeTooMany: `agent_scope may list at most ${MAX_AGENT_SCOPE_IDS} agent ids`,
  agentScopeNeedsWorkspace: 'agent_scope requires workspace_id',
} as const;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

const invalid = (message: string): never => {
  throw new DomainError('VALIDATION_FAILED', message);
};

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/**
 * The one parser from request parameters to a MemoryScope (CONTRACT section 2). Used by the
 * workspace guard (which runs before any pipe or service) and by ScopePipe, so both apply the
 * same rules. Pure: no I/O. UUIDs are lower-cased so comparisons in SQL are exact.
 */
export function parseMemoryScope(raw: RawScopeInput): MemoryScope {
  const userId = raw.user_id;
  if (typeof userId !== 'string' || userId.length === 0) invalid(SCOPE_MESSAGES.userId);
  if ((userId as string).length > MAX_USER_ID_LENGTH) invalid(SCOPE_MESSAGES.userIdTooLong);

  if (!present(raw.workspace_id)) {
    if (present(raw.agent_scope)) invalid(SCOPE_MESSAGES.agentScopeNeedsWorkspace);
    // agent_id without workspace_id is ignored: the call is user-scoped.
    return { kind: 'user', userId: userId as string };
  }
  if (!isUuid(raw.workspace_id)) invalid(SCOPE_MESSAGES.workspaceId);
  if (!present(raw.agent_id)) invalid(SCOPE_MESSAGES.agentRequired);
  if (!isUuid(raw.agent_id)) invalid(SCOPE_MESSAGES.agentId);

  return {
    kind: 'workspace',
    userId: userId as string,
    workspaceId: (raw.workspace_id as string).toLowerCase(),
    agentId: (raw.agent_id as string).toLowerCase(),
    agentScope: parseAgentScope(raw.agent_scope),
  };
}

/**
 * `all` | `self` | `others` | one UUID | a non-empty list of UUIDs. On GET the list may come
 * as a repeated parameter (an array) or comma-separated.
 */
export function parseAgentScope(value: unknown): AgentScope {
  if (!present(value)) return { kind: 'all' };
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = value.includes(',') ? value.split(',').map((s) => s.trim()) : [value];
  else return invalid(SCOPE_MESSAGES.agentScope);

  if (items.length === 1 && typeof items[0] === 'string' && ['all', 'self', 'others'].includes(items[0])) {
    return { kind: items[0] as 'all' | 'self' | 'others' };
  }
  if (items.length === 0 || !items.every(isUuid)) invalid(SCOPE_MESSAGES.agentScope);
  if (items.length > MAX_AGENT_SCOPE_IDS) invalid(SCOPE_MESSAGES.agentScopeTooMany);
  const agentIds = [...new Set((items as string[]).map((id) => id.toLowerCase()))];
  return { kind: 'agents', agentIds };
}
