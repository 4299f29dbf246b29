import type { AppEnv } from '../env/env.schema';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

/** Where the app's database lives: a real server from DATABASE_URL, or the embedded one. */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; description: string }
  | { kind: 'embedded'; embedded: EmbeddedPostgres; description: string };

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');

export async function openDatabaseTarget(env: AppEnv): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    return { kind: 'postgres', url: env.DATABASE_URL, description: `${url.hostname}:${url.port || 5432}${url.pathname}` };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR });
  return { kind: 'embedded', embedded, description: `embedded PGlite in ${embedded.dataDir}` };
}

export async function closeDatabaseTarget(target: DatabaseTarget): Promise<void> {
  if (target.kind === 'embedded') await target.embedded.close();
}
