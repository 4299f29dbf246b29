import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On PostgreSQL, memories no longer keep an HNSW graph over each whole partition.
 *
 * Every write paid for it: inserting a row into the partition's graph was ~2.3 ms of the ~5.9 ms
 * of database CPU a stored memory cost at 32 connections, and ~2.7 ms a row of an import
 * (docs/bench-notes/write-path.md). Reads hardly used it. A scope of up to
 * SEARCH_EXACT_SCOPE_LIMIT visible rows is searched exactly, and every larger scope gets a graph
 * of its own (a tenant graph, maintenance/tenant-graphs.ts, from TENANT_GRAPH_MIN_ROWS, by default
 * the same 3,000 rows) a few seconds after a search first finds it large. The partition's graph
 * only served a large scope in the window before its own graph was built; there the HNSW
 * statement now gets an exact plan (the scope's rows through its btree, sorted by distance),
 * which returns the true nearest rows, and the maintainer builds the graph as before.
 *
 * The embedded database (PGlite) keeps the partition's graph: it has no tenant graphs (they are
 * built concurrently, beside the writes, which one single-connection process cannot do), so a
 * scope over the exact limit there still needs it. The two are told apart by what the server
 * says it is.
 */
export class PartitionGraphOutOfWrites1763700500000 implements MigrationInterface {
  name = 'PartitionGraphOutOfWrites1763700500000';

  async up(runner: QueryRunner): Promise<void> {
    if (await isEmbedded(runner)) return;
    await runner.query('DROP INDEX IF EXISTS memories_embedding_hnsw_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    if (await isEmbedded(runner)) return;
    // Building the graph reads every row: longer than the service's statement timeout on a large table.
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query('CREATE INDEX IF NOT EXISTS memories_embedding_hnsw_idx ON memories USING hnsw (embedding vector_cosine_ops)');
  }
}

/** Whether the database is the embedded PGlite (its version string names it). */
async function isEmbedded(runner: QueryRunner): Promise<boolean> {
  const [{ version }] = (await runner.query('SELECT version() AS version')) as { version: string }[];
  return version.includes('PGlite');
}
