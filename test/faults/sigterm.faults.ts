import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';

import { newId, newUser } from '../support/ids';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { errorLines, startService, tail, type ServiceProcess } from './support/service-process';

/**
 * Defect 3 of issue 10: SIGTERM with keep-alive clients did not drain (new requests were served
 * on open connections until the timeout, then exit 1, in-flight requests reset, no clean
 * database close). Here a real Atrium process gets SIGTERM while keep-alive clients load it,
 * some requests are mid-body and some connections idle.
 */

interface Outcome {
  id: string;
  startedAt: number;
  status?: number;
  connection?: string;
  error?: string;
}

function send(agent: Agent, port: number, method: string, path: string, body: unknown, outcomes: Outcome[]): Promise<void> {
  const id = randomUUID();
  const outcome: Outcome = { id, startedAt: Date.now() };
  outcomes.push(outcome);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          'x-request-id': id,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          outcome.status = res.statusCode;
          outcome.connection = (res.headers as IncomingHttpHeaders).connection;
          resolve();
        });
        res.on('error', (error) => {
          outcome.error = (error as NodeJS.ErrnoException).code ?? error.message;
          resolve();
        });
      },
    );
    req.on('error', (error) => {
      outcome.error = (error as NodeJS.ErrnoException).code ?? error.message;
      resolve();
    });
    req.end(payload);
  });
}

/** A raw keep-alive connection that already answered one request. */
async function warmSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  while (!/\r\n\r\n\{[^}]*\}$/.test(data)) await new Promise((resolve) => setTimeout(resolve, 10));
  data = '';
  return { socket, received: () => data, closed };
}

describe('SIGTERM under keep-alive load', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  const user = newUser('sigterm');

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startService({ ...db.env, SHUTDOWN_TIMEOUT_MS: '15000' });
  });
  afterAll(async () => {
    if (service.alive()) service.child.kill('SIGKILL');
    await db.drop();
  });

  it('refuses new connections, closes idle ones at once, answers every request in flight with Connection: close, closes the database and exits 0', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const outcomes: Outcome[] = [];
    const seeded = await fetch(`${service.url}/v1/memories/ingest/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user, source_site: 'tests', skip_extraction: true, conversation: 'I keep bees in Lisbon' }),
    });
    expect(seeded.status).toBe(200);

    // Keep-alive load: six clients in a loop until their requests stop succeeding.
    let stopLoad = false;
    const loaders = Array.from({ length: 6 }, async (_, i) => {
      while (!stopLoad) {
        const before = outcomes.length;
        if (i % 3 === 0) await send(agent, service.port, 'GET', `/v1/memories/list?user_id=${user}`, undefined, outcomes);
        else
          await send(
            agent,
            service.port,
            'POST',
            i % 3 === 1 ? '/v1/memories/search' : '/v1/memories/search/fast',
            { user_id: user, query: 'bees' },
            outcomes,
          );
        const last = outcomes[before];
        if (last.error === 'ECONNREFUSED') return;
      }
    });
    // Load until at least 30 requests have been answered (however busy the machine is).
    for (let waited = 0; outcomes.filter((o) => o.status !== undefined).length < 30 && waited < 60_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // Three requests mid-body and three idle connections, all on warm keep-alive sockets.
    const slow = await Promise.all([0, 1, 2].map(() => warmSocket(service.port)));
    const idle = await Promise.all([0, 1, 2].map(() => warmSocket(service.port)));
    const body = JSON.stringify({ user_id: user, agent_id: newId(), trust_level: 0.4 });
    for (const { socket } of slow) {
      socket.write(
        `PUT /v1/agents/trust HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));

    const sigtermAt = Date.now();
    service.child.kill('SIGTERM');

    // Idle keep-alive connections are closed at once, without a response.
    await Promise.all(idle.map((s) => s.closed));
    expect(Date.now() - sigtermAt).toBeLessThan(5000);
    expect(idle.map((s) => s.received())).toEqual(['', '', '']);

    // New connections are refused while the requests in flight are still running.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await fetch(`${service.url}/health`).then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    );
    expect(refused).toBe('ECONNREFUSED');
    expect(service.alive()).toBe(true);

    // The requests in flight finish, each with Connection: close, then their connections close.
    for (const { socket } of slow) socket.write(body.slice(10));
    await Promise.all(slow.map((s) => s.closed));
    for (const s of slow) {
      expect(s.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(s.received()).toMatch(/\r\nConnection: close\r\n/i);
    }

    const exit = await service.exited;
    stopLoad = true;
    await Promise.all(loaders);
    agent.destroy();
    expect(exit).toEqual({ code: 0, signal: null });

    // Every request the server answered reached its client complete: none was reset.
    const answered = new Set(service.logs.filter((l) => l.msg === 'request').map((l) => l.request_id));
    const failed = outcomes.filter((o) => o.status === undefined);
    expect(failed.filter((o) => answered.has(o.id))).toEqual([]);
    // Failures are only refused connections or keep-alive sockets closed before the request reached the server.
    expect(failed.filter((o) => !['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(o.error ?? ''))).toEqual([]);
    const statuses = new Set(outcomes.filter((o) => o.status !== undefined).map((o) => o.status));
    expect([...statuses].filter((s) => s !== 200)).toEqual([]);
    // Responses sent after SIGTERM told their clients to close the connection.
    const afterSigterm = outcomes.filter((o) => o.status !== undefined && o.startedAt > sigtermAt + 50);
    expect(afterSigterm.filter((o) => o.connection !== 'close')).toEqual([]);

    expect(service.logs.some((l) => l.msg === 'shutdown complete' && l.drained === true)).toBe(true);
    expect(service.logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('closed '))).toBe(true);
    expect(errorLines(service.logs)).toEqual([]);
    const beforeSigterm = outcomes.filter((o) => o.startedAt < sigtermAt).length;
    expect(beforeSigterm).toBeGreaterThan(20);
    process.stdout.write(
      `sigterm: ${outcomes.length} load requests (${beforeSigterm} before SIGTERM, ${afterSigterm.length} answered after it), ` +
        `${failed.length} refused or closed before reaching the server (${failed.map((o) => o.error).join(',')})\n${tail(service.logs, 3)}\n`,
    );
  });
});
