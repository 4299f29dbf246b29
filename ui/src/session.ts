import { AtriumClient, AtriumError, type WhoAmI } from '../../src/client';

/**
 * Who is signed in. The credentials live in this object (memory) and, only when the operator
 * asks for it, in sessionStorage for this tab; never in a URL, a cookie or localStorage. The
 * page sends them as headers (the typed client's `apiKey` and `adminToken`).
 */
export interface Session {
  authMode: 'off' | 'api_key';
  /** ATRIUM_ADMIN_TOKEN, checked at sign-in against an admin route. */
  adminToken: string | null;
  /** An API key (AUTH_MODE=api_key), checked at sign-in with GET /v1/whoami. */
  apiKey: string | null;
  /** The key's identity, or `open` in AUTH_MODE=off; null with the admin token alone under api_key. */
  who: WhoAmI | null;
  remember: boolean;
}

const STORAGE_KEY = 'atrium-inspector-session';

export function newClient(session: Pick<Session, 'adminToken' | 'apiKey'> | null): AtriumClient {
  return new AtriumClient({
    baseUrl: location.origin,
    apiKey: session?.apiKey ?? undefined,
    adminToken: session?.adminToken ?? undefined,
    retries: false,
    timeoutMs: 20_000,
  });
}

export type SignInResult = { ok: true; session: Session } | { ok: false; error: string };

/**
 * Checks each credential with the service before keeping it: the API key with GET /v1/whoami
 * (which also tells the auth mode and the key's scope), the admin token with a one-event read
 * of the audit log. A refused credential is reported and nothing is kept.
 */
export async function signIn(input: { adminToken: string; apiKey: string; remember: boolean }): Promise<SignInResult> {
  const adminToken = input.adminToken.trim() || null;
  const apiKey = input.apiKey.trim() || null;
  let who: WhoAmI | null;
  try {
    who = await newClient({ adminToken: null, apiKey }).whoami();
  } catch (error) {
    if (!(error instanceof AtriumError) || error.status !== 401) return { ok: false, error: describeError(error) };
    if (apiKey) return { ok: false, error: `The API key was refused: ${error.message}.` };
    who = null;
  }
  const authMode = who?.authMode ?? 'api_key';
  if (authMode === 'off' && apiKey)
    return { ok: false, error: 'This service runs with AUTH_MODE=off: it has no API keys. Leave the API key empty.' };
  if (!who && !adminToken)
    return { ok: false, error: 'This service runs with AUTH_MODE=api_key: sign in with the admin token, an API key, or both.' };
  if (adminToken) {
    try {
      await newClient({ adminToken, apiKey: null }).auditEvents({ limit: 1 });
    } catch (error) {
      if (error instanceof AtriumError && error.status === 401)
        return { ok: false, error: `The admin token was refused: ${error.message}.` };
      if (error instanceof AtriumError && error.status === 404)
        return { ok: false, error: 'This service has no admin routes (ATRIUM_ADMIN_TOKEN is not set). Leave the admin token empty.' };
      return { ok: false, error: describeError(error) };
    }
  }
  const session: Session = { authMode, adminToken, apiKey, who, remember: input.remember };
  saveSession(session);
  return { ok: true, session };
}

export function saveSession(session: Session | null): void {
  try {
    if (session?.remember) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the session then lives in memory only.
  }
}

export function restoreSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Session;
    return parsed && (parsed.authMode === 'off' || parsed.authMode === 'api_key') ? parsed : null;
  } catch {
    return null;
  }
}

/** One line for an error of the client: the service's own message with its status, or what failed. */
export function describeError(error: unknown): string {
  if (error instanceof AtriumError) return `${error.status}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** What the session may do in the inspector. */
export interface Abilities {
  /** Memory and lesson routes: AUTH_MODE=off, or an API key. */
  memories: boolean;
  /** Admin routes (keys, audit, explain): the admin token. */
  admin: boolean;
  /** The scope is typed in (AUTH_MODE=off or a service key), not taken from the key. */
  typedScope: boolean;
}

export function abilitiesOf(session: Session): Abilities {
  const kind = session.who?.kind;
  return {
    memories: kind !== undefined,
    admin: session.adminToken !== null,
    typedScope: kind === 'open' || kind === 'service',
  };
}

export function describeSession(session: Session): string {
  const parts: string[] = [];
  const who = session.who;
  switch (who?.kind) {
    case 'open':
      parts.push('AUTH_MODE=off');
      break;
    case 'service':
      parts.push('service key');
      break;
    case 'user':
      parts.push(`user key of ${who.userId}`);
      break;
    case 'agent':
      parts.push(`agent key of agent ${short(who.agentId)} in workspace ${short(who.workspaceId)} (user ${who.userId})`);
      break;
    case undefined:
      break;
  }
  if (session.adminToken) parts.push('admin');
  return parts.join(' + ');
}

export const short = (id: string | null | undefined): string => (id ? `${id.slice(0, 8)}…` : '—');
