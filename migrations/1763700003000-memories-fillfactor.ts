import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each heap page for HOT updates of `memories`. Every read bumps access_count and
 * last_accessed_at; neither is indexed, so PostgreSQL can update the row in place on its page
 * (a HOT update, no index entries) if the page has room for the new row version. With the
 * default fillfactor (100) the pages are full, and each bump inserted a new entry into every
 * index of the table, the HNSW one included: most of a search's database time went there
 * (docs/benchmarks.md). 85 leaves one row version of room at 384 dimensions (3 rows per page
 * instead of 4; at 1536 dimensions the vector is stored out of line and rows are small).
 * Applies to pages written from now on; existing data keeps its layout until rewritten
 * (VACUUM FULL memories, or pg_repack without the lock).
 */
export class MemoriesFillfactor1763700003000 implements MigrationInterface {
  name = 'MemoriesFillfactor1763700003000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories SET (fillfactor = 85)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories RESET (fillfactor)');
  }
}
