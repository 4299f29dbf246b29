import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

import { JsonLogger } from '../common/logging/json-logger';
import type { AppEnv } from '../env/env.schema';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';

/**
 * Build the application for an already validated environment. Used by main.ts and by the
 * e2e tests, so both run exactly the same stack. Errors propagate (no process.exit here).
 */
export async function createApp(env: AppEnv, logger = new JsonLogger(env.LOG_LEVEL)): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(env), {
    logger,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app, env, logger);
  return app;
}
