import type { AddressInfo } from 'node:net';

import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';

import { createApp } from '../../src/app/bootstrap';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { loadEnv } from '../../src/env/env.schema';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

export interface LoggedApp {
  app: NestExpressApplication;
  dataSource: DataSource;
  baseUrl: string;
  /** Every line the service logged so far (its request log included), as written. */
  logText(): string;
  close(): Promise<void>;
}

/**
 * The real service on its own database, listening on a loopback port, logging at `info` into
 * memory instead of stdout, so a test can read exactly what an operator's log would hold.
 * (Error lines go to stderr, as in production; the request log is on the captured stream.)
 */
export async function startLoggedApp(overrides: Record<string, string>): Promise<LoggedApp> {
  const db: TestDatabase = await createTestDatabase();
  const lines: string[] = [];
  const env = loadEnv({ ...process.env, EMBEDDING_PROVIDER: 'hash', ...db.env, ...overrides, LOG_LEVEL: 'info' });
  let app: NestExpressApplication;
  try {
    app = await createApp(env, new JsonLogger('info', { write: (line: string) => void lines.push(line) }));
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await db.drop();
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    dataSource: app.get(DataSource),
    baseUrl: `http://127.0.0.1:${port}`,
    logText: () => lines.join(''),
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
