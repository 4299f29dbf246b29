import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A second index on the workspace rows of memory_postings, keyed by the agent a row is filed for
 * before the lexeme: NULL for a shared row, the owner for a private row, the grantee for a
 * granted one (visibility.postingReader writes the same expression for the queries).
 *
 * Why: a workspace reader sees the shared rows, its own private rows and the rows granted to it,
 * but a lexeme's range of memory_postings_read_idx (user, workspace, lexeme, memory) holds every
 * agent's private and granted rows too. In the largest workspace of the 1M benchmark (17 agents)
 * the ranked full-text statement read about twice the rows it kept and filtered the rest
 * (docs/bench-notes/bm25-statistics.md, "Postings by reader"). From this index it reads two
 * ranges per lexeme, the shared one and its own, and nothing else.
 *
 * The read index stays: a user scope reads through it, and the triggers find a memory's rows by
 * (lexeme, memory) in it, whoever they are filed for. The new one is partial (workspace rows
 * only), so a write to a personal memory maintains no more than before. Building it reads every
 * workspace posting once: on a large table longer than the statement timeout, lifted for the
 * migration's transaction; writes to memory_postings wait for the build (about 40 s for the
 * 11M postings of the 1M benchmark on this project's 2-core machine).
 */
export class PostingsByReader1763700800000 implements MigrationInterface {
  name = 'PostingsByReader1763700800000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE INDEX memory_postings_reader_idx ON memory_postings
         (user_id, workspace_id, (COALESCE(grantee_agent_id, CASE WHEN class = 1 THEN agent_id END)), lexeme, memory_id)
         INCLUDE (class, agent_id, grantee_agent_id, tf, dl)
         WHERE workspace_id IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS memory_postings_reader_idx');
  }
}
