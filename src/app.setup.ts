import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

import { AllExceptionsFilter, toErrorResponse } from './common/errors/http-exception.filter';
import type { JsonLogger } from './common/logging/json-logger';
import { requestLogger } from './common/logging/request-logger.middleware';
import { createValidationPipe } from './common/validation/validation.pipe';
import type { AppEnv } from './env/env.schema';
import { setupOpenApi } from './openapi/setup-openapi';

export const BODY_LIMIT = '1mb';

/**
 * Everything about the HTTP edge, shared by main.ts and the e2e tests so both run the same
 * stack: request ids and logs, CORS, the JSON body parser with its 1 MB limit, validation
 * and the one error envelope.
 */
export function configureApp(app: INestApplication, env: AppEnv, logger: JsonLogger): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('etag', false);
  express.set('query parser', 'extended');
  app.use(requestLogger(logger));

  const allowed = new Set(env.ALLOWED_ORIGINS);
  app.enableCors({
    origin: (origin: string | undefined, callback: (err: Error | null, allow?: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });

  express.useBodyParser('json', { limit: BODY_LIMIT });
  express.useBodyParser('urlencoded', { limit: BODY_LIMIT, extended: false });
  // Body-parser failures (malformed JSON, too large) happen before Nest's router, so they
  // are answered here with the same envelope as everything else.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const { status, body } = toErrorResponse(error);
    res.status(status).json(body);
  });

  setupOpenApi(app);

  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
}
