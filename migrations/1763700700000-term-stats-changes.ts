import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change rows that writes append to the BM25 statistics get a table of their own,
 * `memory_term_changes`; `memory_term_stats` keeps only the folded rows (docs/bench-notes/write-path.md,
 * "Statistics changes in a table of their own").
 *
 * Why: in one table, the compactor's deletes of folded change rows left free space on pages all
 * over it, and PostgreSQL's free space map sent the next change rows there. Each such row landed
 * on a page not yet changed since the last checkpoint, whose first change writes the whole 8 KB
 * page to the WAL: at 1M rows the statistics table took 185 of the 329 MB of WAL a 20 s write
 * run produced (155 MB of it whole pages), more than the memories, postings and every index
 * together. The changes now append to a small table the fold keeps empty, whose few pages stay
 * in memory; and the folded rows take the fold's updates in place (HOT, no new index entries),
 * since no index of theirs names `docs` any more and pages keep room for them (fillfactor).
 *
 * Readers sum both tables in one statement (bm25-statement.ts, termStatsStatement); the fold
 * moves a batch from one to the other in one transaction, so a reader sees it before or after,
 * with the same sums. `compacted` stays, true on every row of memory_term_stats, so that the
 * folded key (a unique index WHERE compacted) and the rebuild keep working unchanged.
 */
export class TermStatsChanges1763700700000 implements MigrationInterface {
  name = 'TermStatsChanges1763700700000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE TABLE memory_term_changes (
         id                bigserial PRIMARY KEY,
         user_id           text NOT NULL,
         workspace_id      uuid,
         agent_id          uuid,
         grantee_agent_id  uuid,
         class             smallint NOT NULL CHECK (class IN (0, 1, 2)),
         lexeme            text NOT NULL,
         docs              integer NOT NULL,
         length_sum        bigint NOT NULL
       )`,
    );
    // What a search reads beside the folded rows: one scope's changes for the query's lexemes.
    await runner.query('CREATE INDEX memory_term_changes_read_idx ON memory_term_changes (user_id, workspace_id, lexeme)');
    await runner.query(
      `INSERT INTO memory_term_changes (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
       SELECT user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum
         FROM memory_term_stats WHERE NOT compacted ORDER BY id`,
    );
    await runner.query('DELETE FROM memory_term_stats WHERE NOT compacted');
    await runner.query('DROP INDEX memory_term_stats_pending_idx');
    // An index whose predicate names `docs` makes every fold update a new row version with new
    // entries in every index; the fold now removes the keys it brought to zero by their ids.
    await runner.query('DROP INDEX memory_term_stats_empty_idx');
    await runner.query('ALTER TABLE memory_term_stats ALTER COLUMN compacted SET DEFAULT true');
    await runner.query('ALTER TABLE memory_term_stats SET (fillfactor = 80)');
    await this.deltasInto(runner, 'memory_term_changes');
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_truncate_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           DELETE FROM memory_term_changes;
           DELETE FROM memory_term_stats;
           DELETE FROM memory_postings;
           RETURN NULL;
         END
       $$`,
    );
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_rebuild_term_stats() RETURNS void LANGUAGE sql AS $$
         DELETE FROM memory_term_changes;
         SELECT atrium_rebuild_term_stats_only();
         SELECT atrium_rebuild_postings();
       $$`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_rebuild_term_stats() RETURNS void LANGUAGE sql AS $$
         SELECT atrium_rebuild_term_stats_only();
         SELECT atrium_rebuild_postings();
       $$`,
    );
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_truncate_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           DELETE FROM memory_term_stats;
           DELETE FROM memory_postings;
           RETURN NULL;
         END
       $$`,
    );
    await this.deltasInto(runner, 'memory_term_stats');
    await runner.query('ALTER TABLE memory_term_stats RESET (fillfactor)');
    await runner.query('ALTER TABLE memory_term_stats ALTER COLUMN compacted SET DEFAULT false');
    await runner.query('CREATE INDEX memory_term_stats_empty_idx ON memory_term_stats (id) WHERE compacted AND docs = 0');
    await runner.query('CREATE INDEX memory_term_stats_pending_idx ON memory_term_stats (id) WHERE NOT compacted');
    await runner.query(
      `INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum, compacted)
       SELECT user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum, false
         FROM memory_term_changes ORDER BY id`,
    );
    await runner.query('DROP TABLE memory_term_changes');
  }

  /** The two functions that append change rows (a memory's classes, a grant's), writing to `table`. */
  private async deltasInto(runner: QueryRunner, table: 'memory_term_changes' | 'memory_term_stats'): Promise<void> {
    const compacted = table === 'memory_term_stats' ? ', compacted' : '';
    const unfolded = table === 'memory_term_stats' ? ', false' : '';
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_term_deltas(p_user text, p_workspace uuid, p_agent uuid, p_grantee uuid, p_class smallint,
                                                     p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE sql AS $$
           INSERT INTO ${table} (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum${compacted})
           SELECT p_user, p_workspace, p_agent, p_grantee, p_class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum${unfolded}
             FROM atrium_term_rows(p_tsv) t
         $$`,
    );
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_memory_term_deltas(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text,
                                                            p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE plpgsql AS $$
         BEGIN
           INSERT INTO ${table} (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum${compacted})
           SELECT p_user, p_workspace, p_agent, c.grantee, c.class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum${unfolded}
             FROM atrium_memory_classes(p_id, p_user, p_workspace, p_agent, p_visibility) c
            CROSS JOIN atrium_term_rows(p_tsv) t;
           IF p_sign > 0 THEN
             INSERT INTO memory_postings (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, memory_id, tf, dl)
             SELECT p_user, p_workspace, p_agent, c.grantee, c.class, u.lexeme, p_id, cardinality(u.positions), length(p_tsv)
               FROM atrium_memory_classes(p_id, p_user, p_workspace, p_agent, p_visibility) c
              CROSS JOIN unnest(p_tsv) u;
           ELSIF p_workspace IS NULL THEN
             DELETE FROM memory_postings
              WHERE user_id = p_user AND workspace_id IS NULL AND lexeme = ANY(tsvector_to_array(p_tsv)) AND memory_id = p_id;
           ELSE
             DELETE FROM memory_postings
              WHERE user_id = p_user AND workspace_id = p_workspace AND lexeme = ANY(tsvector_to_array(p_tsv)) AND memory_id = p_id;
           END IF;
         END
       $$`,
    );
  }
}
