import type { ScopeInput } from '../../src/client';
import type { Session } from './session';

/** The scope fields as the operator typed them (AUTH_MODE=off or a service key). */
export interface ScopeDraft {
  userId: string;
  workspaceId: string;
  agentId: string;
  /** `all`, `self`, `others`, or agent ids separated by commas. */
  agentScope: string;
}

export const EMPTY_SCOPE: ScopeDraft = { userId: '', workspaceId: '', agentId: '', agentScope: 'all' };

export type ResolvedScope =
  { ok: true; input: ScopeInput; userId: string | null; workspaceId: string | null; agentId: string | null } | { ok: false; error: string };

function agentScopeOf(raw: string): ScopeInput['agentScope'] {
  const value = raw.trim();
  if (value === '' || value === 'all' || value === 'self' || value === 'others') return value === '' ? 'all' : value;
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return ids.length === 1 ? ids[0] : ids;
}

/**
 * The scope a memory request carries. A key's scope comes from the key (only agent_scope is
 * sent, for an agent key), so the page shows exactly what the key's agent sees; a typed scope
 * is sent as typed and the service checks it (the page does not second-guess its rules).
 */
export function resolveScope(session: Session, draft: ScopeDraft): ResolvedScope {
  const who = session.who;
  switch (who?.kind) {
    case undefined:
      return {
        ok: false,
        error: 'Memory routes need an API key in AUTH_MODE=api_key: sign in with one (a service key can open any scope).',
      };
    case 'agent':
      return {
        ok: true,
        input: { agentScope: agentScopeOf(draft.agentScope) },
        userId: who.userId,
        workspaceId: who.workspaceId,
        agentId: who.agentId,
      };
    case 'user':
      return { ok: true, input: {}, userId: who.userId, workspaceId: null, agentId: null };
    case 'open':
    case 'service': {
      const userId = draft.userId.trim();
      if (userId === '') return { ok: false, error: 'Type a user id to open a scope.' };
      const workspaceId = draft.workspaceId.trim();
      if (workspaceId === '') return { ok: true, input: { userId }, userId, workspaceId: null, agentId: null };
      const agentId = draft.agentId.trim();
      return {
        ok: true,
        input: { userId, workspaceId, agentId, agentScope: agentScopeOf(draft.agentScope) },
        userId,
        workspaceId,
        agentId: agentId || null,
      };
    }
  }
}

/** The user a lessons request names: none with a key (the key's user), else the typed one. */
export function lessonUser(session: Session, draft: ScopeDraft): { userId?: string } {
  const kind = session.who?.kind;
  return kind === 'open' || kind === 'service' ? { userId: draft.userId.trim() } : {};
}

export function describeScope(scope: ResolvedScope): string {
  if (!scope.ok) return 'no scope';
  if (scope.workspaceId === null) return `user ${scope.userId} (personal memories)`;
  return `user ${scope.userId}, workspace ${scope.workspaceId}, agent ${scope.agentId ?? '?'}`;
}
