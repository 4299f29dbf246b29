import type { DataSource } from 'typeorm';

import type { EmbeddingIdentity } from '../../embeddings/embedding-identity';

/**
 * Vectors made by another embedder than the configured one, across every tenant: a
 * maintenance question (startup check, re-embedding), so it lives with the database code
 * rather than behind MemoryAccess's per-caller scoping.
 */
/** Tables whose rows carry a vector and its identity. */
export const EMBEDDED_TABLES = ['memories', 'lessons'] as const;

/** How many rows (deleted ones included) were embedded by something other than `identity`; counted up to `cap`. */
export async function countForeignVectors(
  dataSource: DataSource,
  identity: EmbeddingIdentity,
  cap = 1_000_000_000,
): Promise<{ count: number; example: string | null }> {
  let count = 0;
  let example: string | null = null;
  for (const table of EMBEDDED_TABLES) {
    const rows: { n: string; example: string | null }[] = await dataSource.query(
      `SELECT count(*) AS n, min(embedded_by) AS example FROM (SELECT embedded_by FROM ${table} WHERE embedded_by <> $1 LIMIT $2) f`,
      [identity, cap],
    );
    count += Number(rows[0].n);
    example ??= rows[0].example;
  }
  return { count, example };
}
