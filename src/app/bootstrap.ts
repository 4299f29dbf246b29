import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

import { JsonLogger } from '../common/logging/json-logger';
import type { AppEnv } from '../env/env.schema';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';

/**
 * Build the application for an already validated environment. Used by main.ts and by the
 * e2e tests, so both run exactly the same stack. Errors propagate (no process.exit here).
 * `root`: the module tree (AppModule.register(env); a test passes it with its imports reordered).
 */
export async function createApp(
  env: AppEnv,
  logger = new JsonLogger(env.LOG_LEVEL),
  root: DynamicModule = AppModule.register(env),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(root, {
    logger,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app, env, logger);
  return app;
}
