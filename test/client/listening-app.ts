import type { AddressInfo } from 'node:net';

import { AtriumClient, type AtriumClientOptions } from '../../src/client';
import { createTestApp, type TestApp } from '../support/test-app';

export interface ListeningApp {
  t: TestApp;
  baseUrl: string;
  client(options?: Partial<AtriumClientOptions>): AtriumClient;
}

/** The real service on its own database, listening on a loopback port, so the client goes through real HTTP. */
export async function startListeningApp(overrides: Record<string, string> = {}): Promise<ListeningApp> {
  const t = await createTestApp(overrides);
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return { t, baseUrl, client: (options = {}) => new AtriumClient({ baseUrl, retries: false, timeoutMs: 20_000, ...options }) };
}
