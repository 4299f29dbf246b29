import { ADMIN_TOKEN } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { startLoggedApp, type LoggedApp } from './logged-app';

/**
 * What the inspector sends (credentials in headers, memory content in bodies) never reaches
 * the service's log: the request log holds method, path, status and latency, and nothing of
 * the headers, the query string or the body.
 */
describe('the request log', () => {
  let t: LoggedApp;
  const MARKER = 'zebra-violin-marker-7781';

  beforeAll(async () => {
    t = await startLoggedApp({ AUTH_MODE: 'api_key', ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await t.close();
  });

  it('logs no credential, no query string and no body', async () => {
    const user = newUser(`log-${MARKER}`);
    const ws = newId();
    const agent = newId();
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const created = await fetch(`${t.baseUrl}/v1/admin/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ role: 'agent', user_id: user, workspace_id: ws, agent_id: agent, label: `label ${MARKER}` }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const asKey = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const stored = await fetch(`${t.baseUrl}/v1/memories/ingest/quick`, {
      method: 'POST',
      headers: asKey,
      body: JSON.stringify({ conversation: `The secret recipe uses ${MARKER}`, source_site: 'tests', skip_extraction: true }),
    });
    expect(stored.status).toBe(200);
    const searched = await fetch(`${t.baseUrl}/v1/memories/search`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `recipe ${MARKER}` }),
    });
    expect(searched.status).toBe(200);
    // An agent key names its workspace with its user (a user_id alone asks for user scope: 403).
    const listed = await fetch(`${t.baseUrl}/v1/memories/list?user_id=${encodeURIComponent(user)}&workspace_id=${ws}`, { headers: asKey });
    expect(listed.status).toBe(200);
    const refused = await fetch(`${t.baseUrl}/v1/whoami`, { headers: { authorization: `Bearer atr_${MARKER}` } });
    expect(refused.status).toBe(401);
    const audited = await fetch(`${t.baseUrl}/v1/admin/audit?user_id=${encodeURIComponent(user)}`, { headers: admin });
    expect(audited.status).toBe(200);
    const page = await fetch(`${t.baseUrl}/ui/memories`);
    expect([200, 404]).toContain(page.status);

    // The log is written asynchronously: wait for the last request's line.
    await waitFor(() => t.logText().includes('"path":"/ui/memories"'));
    const log = t.logText();
    const requestLines = log
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(requestLines.length).toBeGreaterThanOrEqual(7);
    for (const line of requestLines) {
      expect(Object.keys(line).sort()).toEqual(['latency_ms', 'level', 'method', 'msg', 'path', 'request_id', 'status', 'time']);
    }
    for (const secret of [ADMIN_TOKEN, key, key.slice(4, 20), MARKER, 'secret recipe', user]) {
      expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the log line');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
