import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The grants index also carries memory_id, so the visibility predicate's grant lookup is
 * answered from the index alone.
 *
 * The `restricted` branch of the predicate (database/visibility.ts) is
 * EXISTS (grant WHERE user_id = :user AND workspace_id = :workspace AND grantee_agent_id = :agent
 * AND memory_id = m.id). When a query checks many rows, PostgreSQL runs it as one hashed
 * subplan: it first collects every grant the calling agent holds in the workspace, through
 * the (user_id, workspace_id, grantee_agent_id) index. Without memory_id in the index, each of
 * those grants cost a heap visit: 4 ms per list of a large workspace (4,500 grants of one agent,
 * docs/benchmarks.md), against well under 1 ms as an index-only scan. Same key columns as
 * before, so every query that used the old index uses this one.
 */
export class GrantsIndexCoversMemory1763700005000 implements MigrationInterface {
  name = 'GrantsIndexCoversMemory1763700005000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX memory_visibility_grants_grantee_idx');
    await runner.query(
      'CREATE INDEX memory_visibility_grants_grantee_idx ON memory_visibility_grants (user_id, workspace_id, grantee_agent_id) INCLUDE (memory_id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX memory_visibility_grants_grantee_idx');
    await runner.query(
      'CREATE INDEX memory_visibility_grants_grantee_idx ON memory_visibility_grants (user_id, workspace_id, grantee_agent_id)',
    );
  }
}
