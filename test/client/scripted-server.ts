import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP server on 127.0.0.1 that answers from a script, for the client's timeout, retry
 * and error-envelope tests: real sockets, so fetch, AbortController and timers run for real.
 */
export type Reply =
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  /** Never answers until stop(). */
  | { hang: true }
  /** Closes the socket without an HTTP answer. */
  | { drop: true }
  /** Sends the status line and headers, then never finishes the body. */
  | { stall: true };

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Date.now() on arrival, to measure the client's waits. */
  at: number;
}

export class ScriptedServer {
  readonly received: Received[] = [];
  private readonly script: Reply[] = [];
  private server?: Server;
  baseUrl = '';

  /** Replies in order; when the script runs out every request gets `fallback`. */
  constructor(private readonly fallback: Reply = { status: 200, body: { status: 'ok' } }) {}

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  reply(...replies: Reply[]): this {
    this.script.push(...replies);
    return this;
  }

  reset(): void {
    this.received.length = 0;
    this.script.length = 0;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
    const reply = this.script.shift() ?? this.fallback;
    if ('hang' in reply) return;
    if ('stall' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status": ');
      return;
    }
    if ('drop' in reply) {
      req.socket.destroy();
      return;
    }
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    const type = reply.raw === undefined ? 'application/json' : 'text/html';
    res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
    res.end(text);
  }
}
