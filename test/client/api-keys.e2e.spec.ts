import { AtriumError } from '../../src/client';
import { ADMIN_TOKEN, API_KEY_ENV } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { startListeningApp, type ListeningApp } from './listening-app';

describe('AtriumClient with API keys', () => {
  let app: ListeningApp;
  const user = newUser('client-keys');
  const ws = newId();
  const agent = newId();

  beforeAll(async () => {
    app = await startListeningApp(API_KEY_ENV);
  });
  afterAll(async () => {
    await app.t.close();
  });

  it('mints a key with the admin token, then works as that agent without passing ids', async () => {
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const created = await admin.createApiKey({ role: 'agent', userId: user, workspaceId: ws, agentId: agent, label: 'client test' });
    expect(created).toMatchObject({ role: 'agent', userId: user, workspaceId: ws, agentId: agent, label: 'client test', revokedAt: null });
    expect(created.key).toMatch(/^atr_/);

    const asAgent = app.client({ apiKey: created.key });
    const stored = await asAgent.ingestQuick({ sourceSite: 'client', conversation: 'The client stored this', skipExtraction: true });
    const found = await asAgent.searchFast({ query: 'client stored' });
    expect(found.scope).toEqual({ kind: 'workspace', userId: user, workspaceId: ws, agentId: agent, agentScope: 'all' });
    expect(found.memories.map((m) => m.id)).toEqual(stored.storedMemoryIds);

    const listed = await admin.listApiKeys({ userId: user });
    expect(listed.keys.map((k) => k.id)).toEqual([created.id]);
    const audit = await admin.auditEvents({ userId: user, action: 'memory.stored' });
    expect(audit.events[0]).toMatchObject({ action: 'memory.stored', keyId: created.id, targetId: stored.storedMemoryIds[0] });
    expect(audit.events[0].detail).toHaveProperty('memory_type', 'semantic');

    expect(await admin.revokeApiKey({ id: created.id })).toEqual({ success: true });
    const refused = await asAgent.list({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AtriumError);
    expect((refused as AtriumError).status).toBe(401);
    expect((refused as AtriumError).message).toBe('invalid or missing API key');
  });

  it('refuses admin methods without the adminToken option, before any request', async () => {
    await expect(app.client().listApiKeys()).rejects.toThrow('this call needs the adminToken option');
  });
});
