import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

import type { AppEnv } from '../../env/env.schema';

/**
 * Limits on the HTTP server itself (Node's defaults let a slow client hold a socket for
 * minutes): how long the headers and the whole request may take, how long an idle
 * keep-alive connection stays open, and how many connections are open at once (further
 * ones are closed by Node as soon as they are accepted).
 */
export function applyServerLimits(server: Server, env: AppEnv): void {
  server.headersTimeout = env.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = env.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  if (env.HTTP_MAX_CONNECTIONS > 0) server.maxConnections = env.HTTP_MAX_CONNECTIONS;
  // Node checks the two request timeouts every connectionsCheckingInterval (30 s by default,
  // read when the server starts listening); check every second so they are kept to the second.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
  answerClientErrors(server);
}

/** What Node answers (status and reason) for the parse errors it refuses before any route runs, and our message. */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'Chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timed out'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'Malformed HTTP request'];

/**
 * Errors Node's HTTP parser raises before Express sees a request (headers too large, a request
 * that times out, malformed HTTP) answered with the same `{ "error": ... }` envelope as every
 * route, where Node's own answer has an empty body. As Node does: only when nothing was written
 * on the socket yet, and the connection is closed after.
 */
export function answerClientErrors(server: Server): void {
  if (server.listeners('clientError').length > 0) return;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
    if (error.code === 'ECONNRESET' || !socket.writable || written > 0) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * Graceful drain of one HTTP server. Once `drain()` is called the listener is closed (new
 * connections are refused), idle keep-alive connections are closed at once, and every
 * response still to be sent, on a request already running or one that arrives on an open
 * keep-alive connection, carries `Connection: close`, so its connection closes after it.
 */
export class HttpDrain {
  private draining = false;
  private readonly open = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    // prepend: this must run before Express starts answering the request.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.open.add(res);
      if (this.draining) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.open.delete(res);
        // The connection may just have become idle: close it instead of waiting for the timeout.
        if (this.draining) setImmediate(() => this.server.closeIdleConnections());
      });
    });
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Resolves true once every connection has closed, false when `timeoutMs` passed first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
      this.server.closeIdleConnections();
    });
  }

  /** After a drain timed out: cut whatever is still open. */
  closeAll(): void {
    this.server.closeAllConnections();
  }
}

const drains = new WeakMap<Server, HttpDrain>();

export function httpDrainFor(server: Server): HttpDrain {
  let drain = drains.get(server);
  if (!drain) {
    drain = new HttpDrain(server);
    drains.set(server, drain);
  }
  return drain;
}
