import type { Request } from 'express';

/**
 * Who is calling, as the authentication guard established it (CONTRACT section 10).
 * - `open`: AUTH_MODE=off; the request's scope parameters are taken as they are.
 * - `service`: a trusted gateway's key; may assert any scope, like `open`.
 * - `user`: a key bound to one user; user scope, its lessons and its agents' trust only.
 * - `agent`: a key bound to one agent in one workspace of one user.
 */
export type Principal =
  | { kind: 'open' }
  | { kind: 'service'; keyId: string }
  | { kind: 'user'; keyId: string; userId: string }
  | { kind: 'agent'; keyId: string; userId: string; workspaceId: string; agentId: string };

export type KeyRole = Exclude<Principal['kind'], 'open'>;
export const KEY_ROLES: readonly KeyRole[] = ['agent', 'user', 'service'];

/**
 * The caller of a change, passed explicitly next to the scope down to the writes that append
 * audit events: the key (null without one) and the request id. Explicit rather than
 * AsyncLocalStorage, so a write that forgets its actor is a compile error, not a silent null.
 */
export interface Actor {
  keyId: string | null;
  requestId: string | null;
}

/** For writes that happen outside a request (tests, scripts): no key, no request id. */
export const SYSTEM_ACTOR: Actor = Object.freeze({ keyId: null, requestId: null });

/**
 * A key the guard accepted from memory (ApiKeyAuthenticator.authenticateForStatement): the
 * route's statement must check that it is still unrevoked, in the same round trip as the
 * data, and call `revoked()` (then answer 401) when it is not.
 */
export interface KeyRecheck {
  keyId: string;
  revoked(): void;
}

export interface AuthenticatedRequest extends Request {
  principal?: Principal;
  requestId?: string;
  /** Set on routes marked KeyCheckedInStatement when a key authenticated the request. */
  keyRecheck?: KeyRecheck;
  /** On a `key-or-admin` route: the caller presented the admin token (route-access.ts). */
  adminToken?: true;
}

/** The principal the guard attached; `open` when no guard ran (only routes outside /v1). */
export function principalOf(req: Request): Principal {
  return (req as AuthenticatedRequest).principal ?? { kind: 'open' };
}

export function actorOf(req: Request): Actor {
  const principal = principalOf(req);
  return { keyId: principal.kind === 'open' ? null : principal.keyId, requestId: (req as AuthenticatedRequest).requestId ?? null };
}

/** Whether the admin token authenticated this request (only on `key-or-admin` routes). */
export function calledWithAdminToken(req: Request): boolean {
  return (req as AuthenticatedRequest).adminToken === true;
}
