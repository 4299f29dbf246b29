import 'reflect-metadata';

import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { getHeapStatistics } from 'node:v8';

import { createApp } from './app/bootstrap';
import { installProcessFaultPolicy } from './app/process-faults';
import { httpDrainFor } from './common/http/http-server';
import { JsonLogger } from './common/logging/json-logger';
import { startTracingFromEnv, type TracingHandle } from './common/telemetry/tracing-sdk';
import { DatabaseStartupError } from './database/pgvector';
import { EnvValidationError, loadEnv, type AppEnv } from './env/env.schema';
import { defaultMaxOldSpaceMb, heapLimitWarning, oldSpaceLimitMb, semiSpaceMb } from './env/heap-limit';
import { MetricsService } from './metrics/metrics.service';

type App = Awaited<ReturnType<typeof createApp>>;

/** The trace provider when OTEL_* variables configure an exporter (flushed at shutdown). */
let tracing: TracingHandle | null = null;

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
  // Before the app is built: its HTTP edge installs the request spans only while tracing is on.
  tracing = startTracingFromEnv(env);
  if (tracing) logger.log({ msg: 'tracing on', exporter: env.OTEL_TRACES_EXPORTER ?? 'otlp' });
  // The young generation the process was started with (the embedded database's start flags
  // shrink it), so that heap_size_limit can be read as old space: NODE_OPTIONS, then the
  // command line, as node applies them.
  const semiSpace = semiSpaceMb([...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv]);
  const heapSizeLimit = getHeapStatistics().heap_size_limit;
  const configuredOldSpace = env.ATRIUM_MAX_OLD_SPACE_MB ?? defaultMaxOldSpaceMb(env.DATABASE_URL);
  const heapWarning = heapLimitWarning(configuredOldSpace, heapSizeLimit, semiSpace);
  if (heapWarning) logger.warn(heapWarning, 'Memory');
  let app;
  try {
    app = await createApp(env, logger);
    await app.listen(env.PORT, env.HOST);
  } catch (error) {
    const message = error instanceof DatabaseStartupError ? error.message : ((error as Error).stack ?? String(error));
    process.stderr.write(`Atrium cannot start: ${message}\n`);
    process.exit(1);
  }

  const metrics = app.get(MetricsService);
  installProcessFaultPolicy(logger, (kind) => metrics.processFaults.inc({ kind }));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown(app, env, logger, signal).then(
        (code) => process.exit(code),
        (error: Error) => {
          logger.error({ msg: 'shutdown failed', error: error.message }, error.stack ?? '');
          process.exit(1);
        },
      );
    });
  }
  const address = (app.getHttpServer() as Server).address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.log({
    msg: 'Atrium listening',
    port,
    database: env.DATABASE_URL ? 'postgres' : 'embedded',
    old_space_limit_mb: oldSpaceLimitMb(heapSizeLimit, semiSpace),
  });
}

/**
 * SIGTERM/SIGINT: stop accepting, close idle keep-alive connections, answer what is in flight
 * (with `Connection: close`), then close the pool and the embedded database and exit 0. If
 * requests are still running after SHUTDOWN_TIMEOUT_MS they are cut and the exit code is 1.
 */
async function shutdown(app: App, env: AppEnv, logger: JsonLogger, signal: string): Promise<number> {
  logger.log({ msg: 'shutting down', signal });
  const drain = httpDrainFor(app.getHttpServer() as Server);
  const drained = await drain.drain(env.SHUTDOWN_TIMEOUT_MS);
  if (!drained) {
    logger.error(`requests still running after SHUTDOWN_TIMEOUT_MS (${env.SHUTDOWN_TIMEOUT_MS} ms); closing their connections`);
    drain.closeAll();
  }
  // Access bookkeeping, the pool, then the embedded database (Nest's shutdown hooks, in order).
  const closing = app.close();
  const hardStop = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), env.SHUTDOWN_TIMEOUT_MS).unref());
  if ((await Promise.race([closing.then(() => 'closed' as const), hardStop])) === 'timeout') {
    closing.catch(() => undefined);
    logger.error('closing the database timed out; exiting');
    return 1;
  }
  await tracing?.shutdown().catch((error: Error) => logger.warn(`flushing traces failed: ${error.message}`, 'Tracing'));
  logger.log({ msg: 'shutdown complete', drained });
  return drained ? 0 : 1;
}

main().catch((error: Error) => {
  process.stderr.write(`Atrium failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
