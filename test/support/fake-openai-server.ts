import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';

/**
 * A fake OpenAI-compatible server on 127.0.0.1 (random port) for tests of embedding and chat
 * clients: real HTTP, real sockets, scripted failures.
 *
 *   const server = new FakeOpenAiServer();
 *   const baseUrl = await server.start();
 *   server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } });
 *   ... the client under test calls baseUrl ...
 *   expect(server.requests).toHaveLength(2);
 *   await server.stop();
 *
 * A request takes the first queued reply whose `path` matches (or that has no path); when none
 * is queued, the route's handler answers (default: deterministic embeddings for
 * POST /v1/embeddings); anything else gets a 404.
 */

export type ScriptedReply =
  | {
      kind?: 'json';
      status?: number;
      headers?: Record<string, string>;
      /** Serialised with JSON.stringify. */
      body: unknown;
      /** Wait this long before answering. */
      delayMs?: number;
      /** Only for requests to this path. */
      path?: string;
    }
  | { kind: 'raw'; status?: number; headers?: Record<string, string>; body: string; delayMs?: number; path?: string }
  /** Sends headers, then stops: the body never ends (until stop()). */
  | { kind: 'stall-body'; status?: number; path?: string }
  /** Closes the socket without an HTTP answer (after `delayMs`). */
  | { kind: 'drop'; delayMs?: number; path?: string }
  /** Never answers; the connection stays open until the client gives up or stop(). */
  | { kind: 'hang'; path?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON when the body is JSON, else the raw text. */
  body: unknown;
  rawBody: string;
}

export type RouteHandler = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface FakeOpenAiServerOptions {
  /** Vector size when a request has no `dimensions`. Default 384. */
  defaultDimensions?: number;
}

export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[] = [];
  private readonly handlers = new Map<string, RouteHandler>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server?: Server;
  private url?: string;

  constructor(private readonly options: FakeOpenAiServerOptions = {}) {
    this.resetHandlers();
  }

  /** Listens on 127.0.0.1 with a free port; returns the base URL (no trailing slash). */
  async start(): Promise<string> {
    if (this.url) return this.url;
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  get baseUrl(): string {
    if (!this.url) throw new Error('FakeOpenAiServer: call start() first');
    return this.url;
  }

  /** Closes every connection, including hanging ones, and the listener. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Replies used in order, before any handler. */
  enqueue(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Replaces the handler of `path` (any method). */
  setHandler(path: string, handler: RouteHandler): this {
    this.handlers.set(path, handler);
    return this;
  }

  /** Forgets recorded requests, queued replies and custom handlers. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.resetHandlers();
  }

  /** Requests to one path, in arrival order. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private resetHandlers(): void {
    this.handlers.clear();
    this.handlers.set('/v1/embeddings', (request) => embeddingsReply(request, this.options.defaultDimensions ?? 384));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const request: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body: parseMaybeJson(rawBody), rawBody };
    this.requests.push(request);

    const queued = this.queue.findIndex((reply) => reply.path === undefined || reply.path === path);
    let reply: ScriptedReply;
    if (queued >= 0) {
      reply = this.queue.splice(queued, 1)[0];
    } else {
      const handler = this.handlers.get(path);
      try {
        reply = handler ? await handler(request) : { status: 404, body: { error: { message: `no route for ${path}` } } };
      } catch (error) {
        reply = { status: 500, body: { error: { message: `fake handler failed: ${String(error)}` } } };
      }
    }
    this.send(reply, req, res);
  }

  private send(reply: ScriptedReply, req: IncomingMessage, res: ServerResponse): void {
    switch (reply.kind) {
      case 'hang':
        return;
      case 'stall-body':
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.write('{"data": [');
        return;
      case 'drop':
        this.later(reply.delayMs, () => req.socket.destroy());
        return;
      case 'raw':
        this.later(reply.delayMs, () => {
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body);
        });
        return;
      default:
        this.later(reply.delayMs, () => {
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
          res.end(JSON.stringify(reply.body));
        });
    }
  }

  private later(delayMs: number | undefined, action: () => void): void {
    if (!delayMs) return action();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    this.timers.add(timer);
  }
}

function parseMaybeJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The default `/v1/embeddings` answer: hash-provider vectors (deterministic, unit length) of
 * the requested `dimensions`, in input order, in OpenAI's response shape.
 */
export function embeddingsReply(request: RecordedRequest, defaultDimensions: number): ScriptedReply {
  const body = request.body as { model?: unknown; input?: unknown; dimensions?: unknown } | undefined;
  const input = typeof body?.input === 'string' ? [body.input] : body?.input;
  if (!Array.isArray(input) || !input.every((x) => typeof x === 'string')) {
    return { status: 400, body: { error: { message: '`input` must be a string or an array of strings', type: 'invalid_request_error' } } };
  }
  const dimensions = typeof body?.dimensions === 'number' ? body.dimensions : defaultDimensions;
  const hash = new HashEmbeddingProvider(dimensions);
  return {
    body: {
      object: 'list',
      model: body?.model ?? 'fake-embedding-model',
      data: input.map((text: string, index) => ({ object: 'embedding', index, embedding: hash.embedOne(text) })),
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    },
  };
}

/** A chat completion body in OpenAI's shape, for scripting chat replies. */
export function chatCompletionBody(content: string, model = 'fake-chat-model'): unknown {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
