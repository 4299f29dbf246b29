import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';

import { createApp } from '../../src/bootstrap';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { loadEnv, type AppEnv } from '../../src/env/env.schema';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  env: AppEnv;
  db: TestDatabase;
  dataSource: DataSource;
  /** supertest bound to the app's HTTP server (no port needed). */
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * The real application on a database of its own, configured exactly as main.ts does.
 * Defaults for speed: the lexical `hash` embeddings and silent logs; pass overrides to change.
 */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const env = loadEnv({
    ...process.env,
    LOG_LEVEL: 'silent',
    EMBEDDING_PROVIDER: 'hash',
    ...db.env,
    ...overrides,
  });
  let app: NestExpressApplication;
  try {
    app = await createApp(env, new JsonLogger(env.LOG_LEVEL));
    await app.init();
  } catch (error) {
    await db.drop();
    throw error;
  }
  const server = app.getHttpServer();
  return {
    app,
    env,
    db,
    dataSource: app.get(DataSource),
    http: () => request(server),
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
