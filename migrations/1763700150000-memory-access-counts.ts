import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access counts move out of `memories` into `memory_access_counts`, one row per memory that
 * has been read, keyed by (user_id, memory_id).
 *
 * Why (docs/benchmarks.md, round two): every get, expand and search bumped access_count and
 * last_accessed_at on the memory rows, so the hot table's pages were rewritten all the time:
 * a new row version per read (HOT at best, with fillfactor 85 kept free for it), pages never
 * all-visible (no index-only scans), and vacuum busy behind the reads. The counts now live in
 * a narrow table of their own (fillfactor 70, so its updates stay HOT: neither counted column
 * is indexed), written by the same batched AccessTracker; reads join it to the visible row.
 *
 * The table holds no tenant data of its own and is only read joined to a memory the caller
 * may see (MemoryAccess.records). A memory's counts are removed when it is deleted or
 * superseded through MemoryAccess; a count row of a memory that is gone is never read.
 *
 * Existing counts are copied. The old columns stay in `memories`, no longer read or written,
 * so that instances of the previous release keep working during a rolling deploy; a later
 * migration drops them.
 */
export class MemoryAccessCounts1763700150000 implements MigrationInterface {
  name = 'MemoryAccessCounts1763700150000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE memory_access_counts (
         user_id          text NOT NULL,
         memory_id        uuid NOT NULL,
         access_count     integer NOT NULL,
         last_accessed_at timestamptz,
         CONSTRAINT memory_access_counts_pkey PRIMARY KEY (user_id, memory_id)
       ) WITH (fillfactor = 70)`,
    );
    await runner.query(
      `INSERT INTO memory_access_counts (user_id, memory_id, access_count, last_accessed_at)
       SELECT user_id, id, access_count, last_accessed_at FROM memories
        WHERE access_count <> 0 OR last_accessed_at IS NOT NULL`,
    );
    // Statistics now: the record reads' generic plans are made from them (a table never
    // analyzed gets a plan that reads all of a user's counts per list; docs/benchmarks.md).
    await runner.query('ANALYZE memory_access_counts');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE memories m SET access_count = c.access_count, last_accessed_at = c.last_accessed_at
         FROM memory_access_counts c
        WHERE m.user_id = c.user_id AND m.id = c.memory_id`,
    );
    await runner.query('DROP TABLE memory_access_counts');
  }
}
