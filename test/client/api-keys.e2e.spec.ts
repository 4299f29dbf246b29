import { AtriumError } from '../../src/client';
import { keysToSnake } from '../../src/client/case-conversion';
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

describe('AtriumClient.export', () => {
  let app: ListeningApp;
  const user = newUser('client-export');
  const ws = newId();
  const agent = newId();

  beforeAll(async () => {
    app = await startListeningApp(API_KEY_ENV);
  });
  afterAll(async () => {
    await app.t.close();
  });

  it('streams the header, every visible memory and the end line; the admin token exports the whole user', async () => {
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const created = await admin.createApiKey({ role: 'agent', userId: user, workspaceId: ws, agentId: agent });
    const asAgent = app.client({ apiKey: created.key });
    const stored: string[] = [];
    for (const text of ['The export starts here', 'and it ends with this line']) {
      stored.push(
        ...(await asAgent.ingestQuick({ sourceSite: 'client', conversation: text, skipExtraction: true, metadata: { some_key: 1 } }))
          .storedMemoryIds,
      );
    }
    const lines = [];
    for await (const line of asAgent.export({ includeVectors: true })) lines.push(line);
    expect(lines.map((line) => line.kind)).toEqual(['header', 'memory', 'memory', 'end']);
    expect(lines[0]).toMatchObject({ kind: 'header', format: 'atrium.export', version: 1, scope: { kind: 'workspace', userId: user } });
    const memories = lines.filter((line) => line.kind === 'memory');
    expect(memories.map((m) => m.id).sort()).toEqual([...stored].sort());
    expect(memories[0]).toMatchObject({ metadata: { some_key: 1 }, grants: [] });
    expect(lines[3]).toEqual({ kind: 'end', end: true, count: 2 });

    const everything = [];
    for await (const line of admin.export({ userId: user, asAdmin: true })) if (line.kind === 'memory') everything.push(line.id);
    expect(everything.sort()).toEqual([...stored].sort());

    // an error answer is thrown before any line
    const refused = app.client({ apiKey: created.key }).export({ userId: 'someone-else' });
    await expect(refused.next()).rejects.toMatchObject({ status: 403 });
  });

  it('imports an export back (import), as the admin into another user, skip on a second run, dry run and bad lines', async () => {
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const created = await admin.createApiKey({ role: 'agent', userId: user, workspaceId: ws, agentId: agent });
    const asAgent = app.client({ apiKey: created.key });
    const lines: string[] = [];
    for await (const line of asAgent.export({ includeVectors: true })) {
      const { kind, ...rest } = line;
      void kind;
      lines.push(JSON.stringify(keysToSnake(rest)));
    }
    const file = `${lines.join('\n')}\nnot json\n`;
    const other = newUser('client-import');
    const dry = await admin.import({ userId: other, asAdmin: true, dryRun: true }, file);
    expect(dry).toEqual({ imported: 2, skipped: 0, blocked: 0, failed: 1, errors: [{ line: 5, error: 'not valid JSON' }] });
    expect(await admin.import({ userId: other, asAdmin: true }, file)).toMatchObject({ imported: 2, failed: 1 });
    expect(await admin.import({ userId: other, asAdmin: true }, file)).toMatchObject({ imported: 0, skipped: 2 });
    const refused = asAgent.import({ userId: 'someone-else' }, file);
    await expect(refused).rejects.toMatchObject({ status: 403 });
  });
});

describe('AtriumClient.erase', () => {
  let app: ListeningApp;

  beforeAll(async () => {
    app = await startListeningApp(API_KEY_ENV);
  });
  afterAll(async () => {
    await app.t.close();
  });

  it('erases a user with the admin token and returns the receipt with table names as they are', async () => {
    const user = newUser('client-erase');
    const admin = app.client({ adminToken: ADMIN_TOKEN });
    const created = await admin.createApiKey({ role: 'user', userId: user });
    await app.client({ apiKey: created.key }).ingestQuick({ sourceSite: 'client', conversation: 'Erase me soon', skipExtraction: true });
    const receipt = await admin.erase({ userId: user });
    expect(receipt.erased).toMatchObject({ memories: 1, api_keys: 1, memory_versions: 1 });
    expect(Object.values(receipt.residue).every((n) => n === 0)).toBe(true);
    expect(receipt.erasedAt).toEqual(expect.any(String));
  });
});
