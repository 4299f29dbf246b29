import type { TestApp } from './test-app';

/** An admin token for tests (>= 32 characters). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghijklmnop';
export const API_KEY_ENV = { AUTH_MODE: 'api_key', ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN };

export const adminAuth = { Authorization: `Bearer ${ADMIN_TOKEN}` };
export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export interface CreatedKey {
  id: string;
  key: string;
}

/** Mint a key through the admin route (the only way keys are made). */
export async function createKey(t: TestApp, body: Record<string, unknown>): Promise<CreatedKey> {
  const res = await t.http().post('/v1/admin/keys').set(adminAuth).send(body);
  if (res.status !== 201) throw new Error(`creating a key answered ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: res.body.key };
}

export const agentKey = (t: TestApp, userId: string, workspaceId: string, agentId: string, extra: Record<string, unknown> = {}) =>
  createKey(t, { role: 'agent', user_id: userId, workspace_id: workspaceId, agent_id: agentId, ...extra });
export const userKey = (t: TestApp, userId: string) => createKey(t, { role: 'user', user_id: userId });
export const serviceKey = (t: TestApp) => createKey(t, { role: 'service', user_id: '*' });
