import type { Server } from 'node:http';

import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import qs from 'qs';

import { applyServerLimits, httpDrainFor } from '../common/http/http-server';
import { isStreamedBody, jsonOnly } from '../common/http/json-only.middleware';
import { checkRequestInput } from '../common/http/request-input.middleware';
import type { JsonLogger } from '../common/logging/json-logger';
import { requestLogger } from '../common/logging/request-logger.middleware';
import { traceRequests } from '../common/telemetry/server-spans';
import { tracingEnabled } from '../common/telemetry/tracing';
import { createValidationPipe } from '../common/validation/validation.pipe';
import type { AppEnv } from '../env/env.schema';
import { defaultInspectorDir, INSPECTOR_PREFIX, InspectorAssets } from '../inspector/inspector-assets';
import { MetricsService } from '../metrics/metrics.service';
import { AllExceptionsFilter, toErrorResponse } from './http-exception.filter';
import { setupOpenApi } from './setup-openapi';

export const BODY_LIMIT = '1mb';
/** Repeated query parameters kept as an array (qs's own parameterLimit is 1000). */
const QUERY_ARRAY_LIMIT = 1000;

/**
 * Everything about the HTTP edge, shared by main.ts and the e2e tests so both run the same
 * stack: server timeouts and connection cap, the drain used on shutdown, request ids and logs,
 * CORS, JSON-only bodies (415 otherwise) with a 1 MB limit, the depth/NUL/surrogate check of
 * every body and query, validation and the one error envelope.
 */
export function configureApp(app: INestApplication, env: AppEnv, logger: JsonLogger): void {
  const express = app as NestExpressApplication;
  const server = app.getHttpServer() as Server;
  applyServerLimits(server, env);
  httpDrainFor(server);
  express.disable('x-powered-by');
  express.set('etag', false);
  // Express's `extended` parser (qs, prototypes allowed as there), with repeated parameters kept
  // as an array up to qs's parameter limit: its default arrayLimit of 20 turned a 21st
  // agent_scope into an object, where the contract allows 100 (the scope parser says so).
  express.set('query parser', (query: string) => qs.parse(query, { allowPrototypes: true, arrayLimit: QUERY_ARRAY_LIMIT }));
  // First, so the request's span covers everything after it (only while tracing is on).
  if (tracingEnabled()) app.use(traceRequests());
  app.use(requestLogger(logger));
  if (env.INSPECTOR_ENABLED) serveInspector(app, logger);

  const allowed = new Set(env.ALLOWED_ORIGINS);
  app.enableCors({
    origin: (origin: string | undefined, callback: (err: Error | null, allow?: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // MCP clients in a browser (an allowed origin) send the protocol version and, without a
    // key, the identity headers of /mcp (docs/mcp.md).
    allowedHeaders: [
      'Content-Type',
      'Authorization',
      'X-API-Key',
      'X-Request-Id',
      'Mcp-Protocol-Version',
      'X-Atrium-User-Id',
      'X-Atrium-Workspace-Id',
      'X-Atrium-Agent-Id',
    ],
    exposedHeaders: ['X-Request-Id', 'WWW-Authenticate'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });

  // JSON only: no urlencoded, multipart or text parser, and other types refused with 415.
  app.use(jsonOnly());
  express.useBodyParser('json', {
    limit: BODY_LIMIT,
    type: (req) => !isStreamedBody(req) && (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'application/json',
  });
  app.use(checkRequestInput());
  // Failures before Nest's router (wrong type, malformed JSON, too large, too deep, NUL) are
  // answered here with the same envelope as everything else.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const { status, body } = toErrorResponse(error);
    res.status(status).json(body);
  });

  setupOpenApi(app);

  const metrics = metricsOf(app);
  app.useGlobalFilters(new AllExceptionsFilter(() => metrics?.databaseUnavailable.inc()));
  app.useGlobalPipes(createValidationPipe());
  // No enableShutdownHooks(): main.ts owns SIGTERM/SIGINT (drain, close, exit 0), because
  // Nest's hook re-raises the signal after closing and the process would not exit 0.
}

/**
 * The inspector's static pages at /ui, before CORS and the body checks (they take no body and
 * are only ever loaded same-origin). They hold no data: every page calls the API with the
 * credential the operator signs in with, under the API's own rules.
 */
function serveInspector(app: INestApplication, logger: JsonLogger): void {
  const dir = defaultInspectorDir();
  const assets = InspectorAssets.load(dir);
  if (assets) app.use(assets.handler());
  else logger.warn(`no inspector build in ${dir} (npm run build makes it): ${INSPECTOR_PREFIX} is not served`, 'Inspector');
}

/** The app's metrics, when its module tree has them (minimal apps in tests do not). */
function metricsOf(app: INestApplication): MetricsService | undefined {
  try {
    return app.get(MetricsService);
  } catch {
    return undefined;
  }
}
