import type { DataSource } from 'typeorm';

import type { EmbeddingIdentity } from '../../embeddings/embedding-identity';

/**
 * Vectors made by another embedder than the configured one, across every tenant: a
 * maintenance question (startup check, re-embedding), so it lives with the database code
 * rather than behind MemoryAccess's per-caller scoping.
 */
/** Tables whose rows carry a vector and its identity. */
export const EMBEDDED_TABLES = ['memories', 'lessons'] as const;

/**
 * How many rows (deleted ones included) were embedded by something other than `identity`;
 * counted up to `cap`. Written as the two ranges below and above `identity`, so that each is a
 * range scan of the `embedded_by` index (`<>` is not an index condition; it read the whole table).
 */
export async function countForeignVectors(
  dataSource: DataSource,
  identity: EmbeddingIdentity,
  cap = 1_000_000_000,
): Promise<{ count: number; example: string | null }> {
  let count = 0;
  let example: string | null = null;
  for (const table of EMBEDDED_TABLES) {
    const rows: { n: string; example: string | null }[] = await dataSource.query(foreignVectorsStatement(table), [identity, cap]);
    count += Number(rows[0].n);
    example ??= rows[0].example;
  }
  return { count, example };
}

/**
 * The statement for one table ($1 the configured identity, $2 the cap): the two ranges below and
 * above the identity, so that each is a range scan of the table's `embedded_by` index.
 */
export function foreignVectorsStatement(table: (typeof EMBEDDED_TABLES)[number]): string {
  return `SELECT count(*) AS n, min(embedded_by) AS example FROM (
    (SELECT embedded_by FROM ${table} WHERE embedded_by < $1 LIMIT $2)
    UNION ALL
    (SELECT embedded_by FROM ${table} WHERE embedded_by > $1 LIMIT $2)
    LIMIT $2
  ) f`;
}
