import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { PGlite, type Extensions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM, with pgvector) persisted to a
 * data directory and served over a private unix socket, so the ordinary `pg` driver and
 * TypeORM talk to it exactly as they talk to a real server.
 *
 * All socket connections share one PGlite backend: session state (`SET`, temp tables) leaks
 * between them and an open transaction blocks everyone. Code that needs session settings
 * uses `SET LOCAL` inside short transactions.
 */
export interface EmbeddedPostgres {
  /** Connection settings for `pg` / TypeORM. */
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Load pgvector into the embedded server (default true). False exists for tests of the missing-extension path. */
  withVector?: boolean;
  maxConnections?: number;
  /**
   * shared_buffers of the embedded server (EMBEDDED_SHARED_BUFFERS). PGlite's buffer pool is
   * WebAssembly memory inside the service process, written in full when the server starts (so
   * resident from the first second, used or not) and never given back: PostgreSQL's 128MB
   * default shows up in the service's RSS. Pages it does not hold are read from the data files
   * through the kernel's page cache, which the RSS does not count.
   */
  sharedBuffers?: string;
}

const SOCKET_PORT = 5432;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });

  const extensions: Extensions = options.withVector === false ? {} : { vector };

  const settings = options.sharedBuffers ? [`shared_buffers=${options.sharedBuffers}`] : [];
  let db: PGlite;
  try {
    db = await PGlite.create({
      dataDir,
      extensions,
      // PGlite writes these lines as the whole of postgresql.conf at every start.
      postgresqlconf: settings.length ? settings : undefined,
    });
  } catch (error) {
    throw new Error(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}. ` + 'Is another Atrium process using this DATA_DIR?',
    );
  }

  // Unix socket paths are limited to ~107 bytes, so the socket lives in a short private
  // temp directory rather than inside DATA_DIR.
  const socketDir = await mkdtemp(join(tmpdir(), 'atrium-pg-'));
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    maxConnections: options.maxConnections ?? 20,
  });
  await server.start();

  let closed = false;
  return {
    host: socketDir,
    port: SOCKET_PORT,
    database: 'postgres',
    username: 'postgres',
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      await server.stop();
      await db.close();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
