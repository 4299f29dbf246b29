import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A webhook receiver on 127.0.0.1: records every POST, answers `status` (200 by default),
 * and can go down (its port closed: connections refused) and come back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  status = 200;
  private server?: Server;
  private port = 0;

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body) });
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Received on `path`, in order. */
  on(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }
}

/** Standard Webhooks verification, written from the layout (not with the service's code). */
export function verifyStandardWebhook(secret: string, message: ReceivedWebhook): boolean {
  const id = String(message.headers['webhook-id']);
  const timestamp = String(message.headers['webhook-timestamp']);
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${message.body}`)
    .digest();
  return String(message.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
