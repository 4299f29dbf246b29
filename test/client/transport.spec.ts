import { AtriumClient, AtriumError, AtriumNetworkError, AtriumTimeoutError } from '../../src/client';
import { ScriptedServer } from './scripted-server';

const USER = { userId: 'u1' };
const WS = { userId: 'u1', workspaceId: '6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11', agentId: '0b6c1f5e-2c1d-4f7e-8f0e-5b7f2f9d3c21' };

describe('client transport against a scripted server', () => {
  let server: ScriptedServer;
  const client = (options: Partial<ConstructorParameters<typeof AtriumClient>[0]> = {}) =>
    new AtriumClient({ baseUrl: server.baseUrl, retries: { attempts: 2, baseDelayMs: 20 }, ...options });

  beforeAll(async () => {
    server = await new ScriptedServer().start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.stop());

  describe('retries', () => {
    it('retries a 503 and returns the answer that follows', async () => {
      server.reply({ status: 503, body: { error: 'Embedding provider unavailable' } }, { status: 200, body: { status: 'ok' } });
      await expect(client().health()).resolves.toEqual({ status: 'ok' });
      expect(server.received).toHaveLength(2);
      expect(server.received[1].at - server.received[0].at).toBeGreaterThanOrEqual(9);
    });

    it('waits the Retry-After of a 429 rather than its own backoff', async () => {
      server.reply(
        { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '1' } },
        { status: 200, body: { memories: [], count: 0 } },
      );
      await expect(client().list(USER)).resolves.toEqual({ memories: [], count: 0 });
      expect(server.received).toHaveLength(2);
      expect(server.received[1].at - server.received[0].at).toBeGreaterThanOrEqual(950);
    });

    it('retries 429 on a non-idempotent write too: the rate limit refused it before any work', async () => {
      server.reply(
        { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } },
        { status: 200, body: { episode_id: 'e', stored_memory_ids: [] } },
      );
      await expect(client().ingestQuick({ ...USER, conversation: 'c', sourceSite: 's' })).resolves.toEqual({
        episodeId: 'e',
        storedMemoryIds: [],
      });
      expect(server.received).toHaveLength(2);
    });

    it('never retries a 503 on a non-idempotent write: the write may have committed before the connection was lost', async () => {
      server.reply(
        { status: 503, body: { error: 'Database unavailable' } },
        { status: 200, body: { episode_id: 'e', stored_memory_ids: [] } },
      );
      await expect(client().ingestQuick({ ...USER, conversation: 'c', sourceSite: 's' })).rejects.toMatchObject({ status: 503 });
      expect(server.received).toHaveLength(1);
    });

    it('throws at once when Retry-After asks for longer than maxDelayMs', async () => {
      server.reply({ status: 429, body: { error: 'come back tomorrow' }, headers: { 'retry-after': '86400' } });
      const started = Date.now();
      await expect(client().health()).rejects.toMatchObject({ name: 'AtriumError', status: 429, message: 'come back tomorrow' });
      expect(server.received).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('gives up after the configured attempts with the last error', async () => {
      server.reply(...Array.from({ length: 5 }, (_, i) => ({ status: 503, body: { error: `down ${i}` } })));
      await expect(client().health()).rejects.toMatchObject({ status: 503, message: 'down 2' });
      expect(server.received).toHaveLength(3);
    });

    it.each([400, 403, 404, 409, 500])('never retries a %i', async (status) => {
      server.reply({ status, body: { error: `answer ${status}` } });
      const error = await client()
        .get({ ...USER, id: 'x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtriumError);
      expect(error).toMatchObject({ status, message: `answer ${status}`, method: 'GET', path: '/v1/memories/x' });
      expect(server.received).toHaveLength(1);
    });

    it('retries whatever statuses `on` lists', async () => {
      server.reply({ status: 500, body: { error: 'Internal server error' } });
      await expect(client({ retries: { attempts: 1, on: [500], baseDelayMs: 1 } }).health()).resolves.toEqual({ status: 'ok' });
      expect(server.received).toHaveLength(2);
    });

    it('lets one call turn retries off', async () => {
      server.reply({ status: 503, body: { error: 'down' } });
      await expect(client().health({ retries: false })).rejects.toMatchObject({ status: 503 });
      expect(server.received).toHaveLength(1);
    });

    it('retries a dropped connection for a read', async () => {
      server.reply({ drop: true });
      await expect(client().health()).resolves.toEqual({ status: 'ok' });
      expect(server.received).toHaveLength(2);
    });

    it('does not retry a dropped connection for an ingest: it may have been stored', async () => {
      server.reply({ drop: true });
      const error = await client()
        .ingestQuick({ ...USER, conversation: 'c', sourceSite: 's' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtriumNetworkError);
      expect((error as Error).message).toMatch(/^POST \/v1\/memories\/ingest\/quick failed: /);
      expect(server.received).toHaveLength(1);
    });

    it('does not retry a dropped lesson report either', async () => {
      server.reply({ drop: true });
      await expect(client().reportLesson({ ...USER, pattern: 'p' })).rejects.toBeInstanceOf(AtriumNetworkError);
      expect(server.received).toHaveLength(1);
    });
  });

  describe('timeouts and aborts', () => {
    it('throws AtriumTimeoutError when the server never answers', async () => {
      server.reply({ hang: true });
      const started = Date.now();
      const error = await client({ timeoutMs: 150, retries: false })
        .health()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtriumTimeoutError);
      expect(error).toMatchObject({ timeoutMs: 150, method: 'GET', path: '/health' });
      expect(error).not.toBeInstanceOf(AtriumNetworkError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('counts a body that never finishes as a timeout', async () => {
      server.reply({ stall: true });
      await expect(client({ timeoutMs: 150, retries: false }).health()).rejects.toBeInstanceOf(AtriumTimeoutError);
    });

    it('retries a timed-out read and returns the next answer', async () => {
      server.reply({ hang: true }, { status: 200, body: { memories: [], count: 0 } });
      await expect(client({ timeoutMs: 150 }).list(USER)).resolves.toEqual({ memories: [], count: 0 });
      expect(server.received).toHaveLength(2);
    });

    it('takes a per-call timeout', async () => {
      server.reply({ hang: true });
      await expect(client({ retries: false }).health({ timeoutMs: 100 })).rejects.toMatchObject({
        name: 'AtriumTimeoutError',
        timeoutMs: 100,
      });
    });

    it("rethrows the caller's abort reason, without retrying", async () => {
      server.reply({ hang: true });
      const controller = new AbortController();
      const reason = new Error('user navigated away');
      setTimeout(() => controller.abort(reason), 50);
      await expect(client().health({ signal: controller.signal })).rejects.toBe(reason);
      expect(server.received).toHaveLength(1);
    });

    it('stops waiting for a retry when the caller aborts', async () => {
      server.reply({ status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '20' } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      await expect(client().health({ signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(server.received).toHaveLength(1);
    });
  });

  describe('errors and the wire', () => {
    it('reports an unreachable service as AtriumNetworkError', async () => {
      const gone = await new ScriptedServer().start();
      const baseUrl = gone.baseUrl;
      await gone.stop();
      const error = await new AtriumClient({ baseUrl, retries: false }).health().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtriumNetworkError);
      expect((error as Error).cause).toBeDefined();
    });

    it('turns a non-JSON error page into an AtriumError with the status', async () => {
      server.reply({ status: 502, raw: '<html>Bad Gateway</html>' });
      await expect(client({ retries: false }).health()).rejects.toMatchObject({
        name: 'AtriumError',
        status: 502,
        message: 'HTTP 502 Bad Gateway',
        body: '<html>Bad Gateway</html>',
      });
    });

    it('refuses a 2xx that is not JSON', async () => {
      server.reply({ status: 200, raw: '<html>captive portal</html>' });
      await expect(client().health()).rejects.toMatchObject({ status: 200, message: 'Response body is not JSON' });
    });

    it('keeps the config envelope: detail, rejected (camelCased) and the request id', async () => {
      server.reply({
        status: 400,
        body: { error: 'Provider and model selection is startup-only', detail: 'fixed at startup', rejected: ['embedding_provider'] },
        headers: { 'x-request-id': 'req-1' },
      });
      await expect(client().updateConfig({ lessonsEnabled: false })).rejects.toMatchObject({
        status: 400,
        message: 'Provider and model selection is startup-only',
        detail: 'fixed at startup',
        rejected: ['embeddingProvider'],
        requestId: 'req-1',
      });
    });

    it('sends JSON with its headers and the caller-supplied ones', async () => {
      await client({ headers: { 'x-team': 'blue' } }).search(
        { ...WS, query: 'q', agentScope: 'others' },
        { headers: { 'x-request-id': 'r-9' } },
      );
      const [req] = server.received;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/memories/search');
      expect(req.headers).toMatchObject({
        'content-type': 'application/json',
        accept: 'application/json',
        'x-team': 'blue',
        'x-request-id': 'r-9',
      });
      expect(JSON.parse(req.body)).toEqual({
        user_id: 'u1',
        workspace_id: WS.workspaceId,
        agent_id: WS.agentId,
        agent_scope: 'others',
        query: 'q',
      });
    });

    it('keeps a path prefix of baseUrl, encodes path ids and repeats array parameters', async () => {
      const prefixed = new AtriumClient({ baseUrl: `${server.baseUrl}/atrium/`, retries: false });
      await prefixed.get({ ...WS, id: 'a/b c', agentScope: ['x', 'y'] });
      expect(server.received[0].url).toBe(
        `/atrium/v1/memories/a%2Fb%20c?user_id=u1&workspace_id=${WS.workspaceId}&agent_id=${WS.agentId}&agent_scope=x&agent_scope=y`,
      );
    });

    it('sends a lesson report with user_id in the query and the rest in the body', async () => {
      await client().reportLesson({ userId: 'u 1', pattern: 'p', sourceMemoryIds: [], severity: 'critical' });
      expect(server.received[0].url).toBe('/v1/memories/lessons/report?user_id=u+1');
      expect(JSON.parse(server.received[0].body)).toEqual({ pattern: 'p', source_memory_ids: [], severity: 'critical' });
    });

    it('rejects bad options when constructed', () => {
      expect(() => new AtriumClient({ baseUrl: 'localhost:3050' })).toThrow(TypeError);
      expect(() => new AtriumClient({ baseUrl: server.baseUrl, timeoutMs: 0 })).toThrow(TypeError);
      expect(() => new AtriumClient({ baseUrl: server.baseUrl, retries: { attempts: -1 } })).toThrow(TypeError);
    });

    it('accepts the global fetch (typeof fetch) and a wrapped one', async () => {
      const seen: string[] = [];
      const wrapped: typeof fetch = (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      };
      await expect(new AtriumClient({ baseUrl: server.baseUrl, fetch }).health()).resolves.toEqual({ status: 'ok' });
      await expect(new AtriumClient({ baseUrl: server.baseUrl, fetch: wrapped }).health()).resolves.toEqual({ status: 'ok' });
      expect(seen).toEqual([`${server.baseUrl}/health`]);
    });
  });
});
