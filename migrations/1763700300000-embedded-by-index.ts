import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which embedder made the stored vectors is asked at every start (prepareDatabase's identity
 * check) and by `npm run reembed`. Without an index the question "is any row's embedded_by not
 * the configured one?" reads the whole table when the answer is no, which is the usual case:
 * at a million memories a start spent seconds in it, and under load it ran past the statement
 * timeout and the instance could not start. A btree on `embedded_by` answers it with two range
 * scans (below and above the configured value), whatever the table's size.
 *
 * Building it reads the whole table once, which takes longer than the service's statement
 * timeout on a large one: the migration lifts the timeout for its own transaction.
 */
export class EmbeddedByIndex1763700300000 implements MigrationInterface {
  name = 'EmbeddedByIndex1763700300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query('CREATE INDEX memories_embedded_by_idx ON memories (embedded_by)');
    await runner.query('CREATE INDEX lessons_embedded_by_idx ON lessons (embedded_by)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX lessons_embedded_by_idx');
    await runner.query('DROP INDEX memories_embedded_by_idx');
  }
}
