import type { AppEnv } from '../env/env.schema';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

/**
 * Where the app's database lives: a real server from DATABASE_URL, or the embedded one.
 * `directUrl` is the same database without a connection pooler in between (DATABASE_DIRECT_URL,
 * else DATABASE_URL): migrations take a session advisory lock and the runtime-config listener
 * holds a LISTEN, neither of which survives PgBouncer's transaction mode. `pooled` is true when
 * the two differ, i.e. DATABASE_URL is taken to be a transaction-mode pooler.
 */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; directUrl: string; pooled: boolean; description: string }
  | { kind: 'embedded'; embedded: EmbeddedPostgres; description: string };

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

export async function openDatabaseTarget(env: AppEnv): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    const directUrl = env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
    return {
      kind: 'postgres',
      url: env.DATABASE_URL,
      directUrl,
      pooled: directUrl !== env.DATABASE_URL,
      description: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: env.DATA_DIR,
    sharedBuffers: env.EMBEDDED_SHARED_BUFFERS,
  });
  return { kind: 'embedded', embedded, description: `embedded PGlite in ${embedded.dataDir}` };
}

export async function closeDatabaseTarget(target: DatabaseTarget): Promise<void> {
  if (target.kind === 'embedded') await target.embedded.close();
}
