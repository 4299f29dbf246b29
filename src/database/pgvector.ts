import type { DataSource } from 'typeorm';

export const MIN_PGVECTOR_VERSION = '0.8.0';

/** Raised when the database cannot serve Atrium; main.ts prints the message as one line and exits. */
export class DatabaseStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseStartupError';
  }
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

const INSTALL_HINT =
  'Install pgvector >= 0.8 on the PostgreSQL server (Debian/Ubuntu: apt install postgresql-<major>-pgvector; ' +
  'on a machine without that package: npm run pgvector:install), or unset DATABASE_URL to use the embedded database.';

/**
 * Make sure pgvector >= 0.8 is installed in the connected database, creating it when it is
 * available but not yet created. Anything else stops startup with one clear sentence: Atrium
 * never runs without vector search.
 */
export async function ensurePgvector(query: Query, where: string): Promise<string> {
  const rows = await query("SELECT default_version, installed_version FROM pg_available_extensions WHERE name = 'vector'");
  if (rows.length === 0) {
    throw new DatabaseStartupError(`pgvector is not installed on the PostgreSQL server at ${where}. ${INSTALL_HINT}`);
  }
  let installed = rows[0].installed_version as string | null;
  if (!installed) {
    try {
      await query('CREATE EXTENSION IF NOT EXISTS vector');
    } catch (error) {
      throw new DatabaseStartupError(
        `pgvector is available on ${where} but the extension could not be created: ${(error as Error).message}. ` +
          'Run CREATE EXTENSION vector as a superuser in this database, or grant the Atrium role the right to.',
      );
    }
    const after = await query("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    installed = (after[0]?.extversion as string | undefined) ?? null;
  }
  if (!installed || compareVersions(installed, MIN_PGVECTOR_VERSION) < 0) {
    throw new DatabaseStartupError(
      `pgvector ${installed ?? '(unknown)'} on ${where} is too old: Atrium needs ${MIN_PGVECTOR_VERSION} or newer ` +
        '(iterative index scans). Upgrade the package, then run ALTER EXTENSION vector UPDATE.',
    );
  }
  return installed;
}

/** The embedding column's dimension must match the configured provider's. */
export async function ensureEmbeddingDimensions(dataSource: DataSource, expected: number): Promise<void> {
  const rows: { table: string; dims: number }[] = await dataSource.query(
    `SELECT c.relname AS table, a.atttypmod AS dims
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND a.attname = 'embedding' AND NOT a.attisdropped
        AND c.relkind IN ('r', 'p') AND c.relname IN ('memories', 'lessons')`,
  );
  for (const row of rows) {
    if (Number(row.dims) !== expected) {
      throw new DatabaseStartupError(
        `EMBEDDING_DIMENSIONS is ${expected} but ${row.table}.embedding is vector(${row.dims}). ` +
          `Use the dimension the database was created with, or start on a new database.`,
      );
    }
  }
}
