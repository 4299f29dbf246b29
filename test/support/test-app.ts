import type { DynamicModule } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import request from 'supertest';
import { DataSource } from 'typeorm';

import { AppModule } from '../../src/app/app.module';
import { createApp } from '../../src/app/bootstrap';
import { DOCS_JSON_PATH } from '../../src/app/setup-openapi';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { loadEnv, type AppEnv } from '../../src/env/env.schema';
import { ResponseValidator } from '../openapi/response-validator';
import type { OpenApiDocument } from '../openapi/schema-validator';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  env: AppEnv;
  db: TestDatabase;
  dataSource: DataSource;
  /** supertest bound to the app's HTTP server (no port needed). */
  http(): ReturnType<typeof request>;
  /** Responses so far that did not match the OpenAPI document (route, status, JSON path, problem). */
  openApiViolations(): string[];
  /** Closes the app and drops its database; then fails if any response did not match the OpenAPI document. */
  close(): Promise<void>;
}

/** The document is the same for every app (it depends on the code, not the environment). */
let documentCache: Promise<OpenApiDocument> | undefined;

/**
 * Every JSON body the app sends goes through `res.json` (handlers, the exception filter, the
 * body-parser error handler), so wrapping it on this app's own response prototype sees them
 * all. Until the document is known (only while the app starts) nothing is checked.
 */
function watchJsonResponses(app: NestExpressApplication): { use(validator: ResponseValidator): void } {
  let validator: ResponseValidator | undefined;
  const proto = (app.getHttpAdapter().getInstance() as Express).response;
  const json = proto.json;
  proto.json = function (this: Response, body: unknown) {
    validator?.check(this.req, this.statusCode, body);
    return json.call(this, body);
  } as typeof proto.json;
  return { use: (v) => (validator = v) };
}

/**
 * The real application on a database of its own, configured exactly as main.ts does.
 * Defaults for speed: the lexical `hash` embeddings and silent logs; pass overrides to change.
 * Every JSON response is checked against the OpenAPI document the app serves at /docs-json:
 * an undocumented status or a body that does not match its schema fails `close()`.
 */
export async function createTestApp(overrides: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp(await createTestDatabase(), true, overrides, options);
}

export interface TestAppOptions {
  /** The module tree, from the one main.ts uses (e.g. its imports in another order). */
  root?: (registered: DynamicModule) => DynamicModule;
}

/**
 * A second instance of the application on another test app's database (two services, one
 * database, as in a scaled-out deployment). Its close() leaves the database to its owner.
 * (Not on the embedded database: PGlite belongs to one process.)
 */
export async function createSecondInstance(first: TestApp, overrides: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp(first.db, false, overrides);
}

async function startTestApp(
  db: TestDatabase,
  ownsDatabase: boolean,
  overrides: Record<string, string>,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const env = loadEnv({
    ...process.env,
    LOG_LEVEL: 'silent',
    EMBEDDING_PROVIDER: 'hash',
    // No background webhook delivery rounds unless a suite asks for them: a round is a query at
    // any moment, which suites that count the queries of one request would see.
    WEBHOOK_POLL_INTERVAL_MS: '0',
    // Nor background expiry purges (suites call purge() when they test it): a pass that came
    // mid-suite hard-deleted rows a suite had expired into the past (2020) and still read, which
    // made the visibility property fail now and then with a 404 after an expiring PATCH.
    EXPIRY_PURGE_INTERVAL_S: '0',
    // Nor background folds of the BM25 statistics (suites call fold()): statements at any moment.
    TERM_STATS_COMPACT_INTERVAL_MS: '0',
    ...db.env,
    ...overrides,
  });
  let app: NestExpressApplication;
  let validator: ResponseValidator;
  try {
    const registered = AppModule.register(env);
    app = await createApp(env, new JsonLogger(env.LOG_LEVEL), options.root ? options.root(registered) : registered);
    const watcher = watchJsonResponses(app);
    await app.init();
    documentCache ??= fetchDocument(app);
    validator = new ResponseValidator(await documentCache);
    watcher.use(validator);
  } catch (error) {
    documentCache = undefined;
    if (ownsDatabase) await db.drop();
    throw error;
  }
  const server = app.getHttpServer();
  return {
    app,
    env,
    db,
    dataSource: app.get(DataSource),
    http: () => request(server),
    openApiViolations: () => validator.violations,
    async close() {
      await app.close();
      if (ownsDatabase) await db.drop();
      const summary = validator.summary();
      if (summary) throw new Error(summary);
    },
  };
}

async function fetchDocument(app: NestExpressApplication): Promise<OpenApiDocument> {
  const res = await request(app.getHttpServer()).get(DOCS_JSON_PATH);
  if (res.status !== 200 || typeof res.body?.openapi !== 'string') {
    throw new Error(`GET ${DOCS_JSON_PATH} answered ${res.status}, not an OpenAPI document`);
  }
  return res.body as OpenApiDocument;
}
