import 'reflect-metadata';

import { existsSync } from 'node:fs';

import { createApp } from './bootstrap';
import { JsonLogger } from './common/logging/json-logger';
import { DatabaseStartupError } from './database/pgvector';
import { EnvValidationError, loadEnv } from './env/env.schema';

async function main(): Promise<void> {
  // A .env file in the working directory fills in variables that are not already set.
  if (existsSync('.env')) process.loadEnvFile('.env');

  let env;
  try {
    env = loadEnv(process.env);
  } catch (error) {
    if (error instanceof EnvValidationError) {
      process.stderr.write(`Atrium cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = new JsonLogger(env.LOG_LEVEL);
  let app;
  try {
    app = await createApp(env, logger);
    await app.listen(env.PORT, env.HOST);
  } catch (error) {
    const message = error instanceof DatabaseStartupError ? error.message : (error as Error).stack ?? String(error);
    process.stderr.write(`Atrium cannot start: ${message}\n`);
    process.exit(1);
  }

  // Nest closes the HTTP server (letting in-flight requests finish), then the pool and the
  // embedded database. Should something hang, stop anyway after SHUTDOWN_TIMEOUT_MS.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log({ msg: 'shutting down', signal });
      setTimeout(() => {
        logger.error('shutdown timed out; exiting');
        process.exit(1);
      }, env.SHUTDOWN_TIMEOUT_MS).unref();
    });
  }
  logger.log({ msg: 'Atrium listening', port: env.PORT, database: env.DATABASE_URL ? 'postgres' : 'embedded' });
}

void main();
