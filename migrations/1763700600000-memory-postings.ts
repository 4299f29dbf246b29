import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Postings: for each counted memory (live, no expiry) and each of its lexemes, one row carrying
 * the lexeme's term frequency and the memory's length, beside the same visibility class columns
 * as memory_term_stats (migration 1763700400000). The ranked full-text pass reads them from one
 * covering index instead of the memories' heap: scoring a matching row cost a heap page and the
 * unnesting of its whole tsvector (docs/bench-notes/bm25-statistics.md, "Where the largest
 * user's /search still spends"); from the index it costs a tuple among ~70 a page.
 *
 * A row of `memory_postings` is (memory, lexeme) in one class:
 * - `class` 0 or 1 (shared or private, as in memory_term_stats) for the memory itself;
 * - `class` 2 for a `restricted` memory as one grantee reads it (`grantee_agent_id`), one set of
 *   rows per grant to an agent other than the owner.
 * A reader selects exactly the classes it sums for its statistics (visibility.termStatsCondition),
 * so it reads the postings of exactly its visible counted rows, at most one class row per memory.
 * Rows with an expiry are not here (whether they are current depends on the clock): the pass
 * reads those from memories, as the statistics do.
 *
 * Kept by triggers: the memory trigger of memory_term_stats (its function is replaced here, so
 * one call keeps both) takes a memory's rows out when it stops being counted or changes what
 * decides its class, and puts them back with its new values; a trigger on grants, beside the
 * statistics' one, adds or removes the grantee's class-2 rows. TRUNCATE and the rebuild used
 * after a bulk load (atrium_rebuild_term_stats) cover them too. Reading every memory once takes longer than the statement timeout on a
 * large table: the migration lifts it for its transaction.
 */
export class MemoryPostings1763700600000 implements MigrationInterface {
  name = 'MemoryPostings1763700600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE TABLE memory_postings (
         user_id           text NOT NULL,
         workspace_id      uuid,
         agent_id          uuid,
         grantee_agent_id  uuid,
         class             smallint NOT NULL CHECK (class IN (0, 1, 2)),
         lexeme            text NOT NULL,
         memory_id         uuid NOT NULL,
         tf                integer NOT NULL,
         dl                integer NOT NULL
       )`,
    );
    // What the ranked pass reads: one scope's rows for a lexeme, every column it needs in the
    // index. The memory is part of the key, so the triggers find a memory's rows with one probe
    // per lexeme of its old text, and no second index costs every write.
    await runner.query(
      `CREATE INDEX memory_postings_read_idx ON memory_postings (user_id, workspace_id, lexeme, memory_id)
         INCLUDE (class, agent_id, grantee_agent_id, tf, dl)`,
    );

    // The classes a memory counts in (as atrium_memory_term_deltas had them inline): its own, and one per grant.
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_memory_classes(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text)
         RETURNS TABLE (grantee uuid, class smallint) LANGUAGE sql STABLE AS $$
           SELECT CAST(NULL AS uuid),
                  CAST(CASE WHEN p_visibility IS NULL OR p_visibility = 'workspace' THEN 0 ELSE 1 END AS smallint)
           UNION ALL
           SELECT g.grantee_agent_id, CAST(2 AS smallint) FROM memory_visibility_grants g
            WHERE p_visibility = 'restricted' AND g.memory_id = p_id AND g.user_id = p_user
              AND g.workspace_id = p_workspace AND g.grantee_agent_id IS DISTINCT FROM p_agent
         $$`,
    );
    await runner.query(
      `CREATE FUNCTION atrium_postings(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_grantee uuid, p_class smallint, p_tsv tsvector)
         RETURNS void LANGUAGE sql AS $$
           INSERT INTO memory_postings (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, memory_id, tf, dl)
           SELECT p_user, p_workspace, p_agent, p_grantee, p_class, u.lexeme, p_id, cardinality(u.positions), length(p_tsv)
             FROM unnest(p_tsv) u
         $$`,
    );
    // One memory's contribution: the statistics as before, and its postings in or out. PL/pgSQL,
    // not SQL: a session keeps its statements' plans from one trigger call to the next (a SQL
    // function's are made again at every call), and only the branch for the sign runs.
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_memory_term_deltas(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text,
                                                            p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE plpgsql AS $$
         BEGIN
           INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
           SELECT p_user, p_workspace, p_agent, c.grantee, c.class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum
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
    // A grant adds or removes the grantee's class-2 postings: a trigger of its own beside
    // grant_term_stats (which keeps the statistics), with the same lock on the memory row.
    await runner.query(
      `CREATE FUNCTION atrium_grant_postings() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
           m record;
         BEGIN
           IF TG_OP <> 'INSERT' THEN
             SELECT x.agent_id, x.workspace_id, x.visibility, x.content_tsv,
                    x.deleted_at IS NULL AND x.superseded_at IS NULL AND x.expires_at IS NULL AS counted
               INTO m FROM memories x WHERE x.id = OLD.memory_id AND x.user_id = OLD.user_id FOR SHARE;
             IF FOUND AND m.counted AND m.visibility = 'restricted' AND m.workspace_id = OLD.workspace_id
                AND m.agent_id IS DISTINCT FROM OLD.grantee_agent_id THEN
               DELETE FROM memory_postings
                WHERE user_id = OLD.user_id AND workspace_id = OLD.workspace_id AND lexeme = ANY(tsvector_to_array(m.content_tsv))
                  AND memory_id = OLD.memory_id AND class = 2 AND grantee_agent_id = OLD.grantee_agent_id;
             END IF;
           END IF;
           IF TG_OP <> 'DELETE' THEN
             SELECT x.agent_id, x.workspace_id, x.visibility, x.content_tsv,
                    x.deleted_at IS NULL AND x.superseded_at IS NULL AND x.expires_at IS NULL AS counted
               INTO m FROM memories x WHERE x.id = NEW.memory_id AND x.user_id = NEW.user_id FOR SHARE;
             IF FOUND AND m.counted AND m.visibility = 'restricted' AND m.workspace_id = NEW.workspace_id
                AND m.agent_id IS DISTINCT FROM NEW.grantee_agent_id THEN
               PERFORM atrium_postings(NEW.memory_id, NEW.user_id, NEW.workspace_id, m.agent_id, NEW.grantee_agent_id, CAST(2 AS smallint), m.content_tsv);
             END IF;
           END IF;
           RETURN NULL;
         END
       $$`,
    );
    await runner.query(
      `CREATE TRIGGER grant_postings AFTER INSERT OR UPDATE OR DELETE ON memory_visibility_grants
         FOR EACH ROW EXECUTE FUNCTION atrium_grant_postings()`,
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
    // Every posting from scratch beside the statistics: the existing rows now, and a bulk load
    // that ran with the triggers off (the benchmark's seeding) later.
    await runner.query(
      `CREATE FUNCTION atrium_rebuild_postings() RETURNS void LANGUAGE sql AS $$
         DELETE FROM memory_postings;
         INSERT INTO memory_postings (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, memory_id, tf, dl)
         SELECT m.user_id, m.workspace_id, m.agent_id, c.grantee, c.class, u.lexeme, m.id, cardinality(u.positions), length(m.content_tsv)
           FROM memories m
          CROSS JOIN LATERAL atrium_memory_classes(m.id, m.user_id, m.workspace_id, m.agent_id, m.visibility) c
          CROSS JOIN LATERAL unnest(m.content_tsv) u
          WHERE m.deleted_at IS NULL AND m.superseded_at IS NULL AND m.expires_at IS NULL;
       $$`,
    );
    await runner.query('ALTER FUNCTION atrium_rebuild_term_stats() RENAME TO atrium_rebuild_term_stats_only');
    await runner.query(
      `CREATE FUNCTION atrium_rebuild_term_stats() RETURNS void LANGUAGE sql AS $$
         SELECT atrium_rebuild_term_stats_only();
         SELECT atrium_rebuild_postings();
       $$`,
    );
    await runner.query('SELECT atrium_rebuild_postings()');
    await runner.query('ANALYZE memory_postings');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP FUNCTION atrium_rebuild_term_stats()');
    await runner.query('ALTER FUNCTION atrium_rebuild_term_stats_only() RENAME TO atrium_rebuild_term_stats');
    await runner.query('DROP FUNCTION atrium_rebuild_postings()');
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_truncate_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           DELETE FROM memory_term_stats;
           RETURN NULL;
         END
       $$`,
    );
    // The statistics alone again: no grant trigger for postings, the memory deltas without them.
    await runner.query('DROP TRIGGER grant_postings ON memory_visibility_grants');
    await runner.query('DROP FUNCTION atrium_grant_postings()');
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_memory_term_deltas(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text,
                                                            p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE sql AS $$
           INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
           SELECT p_user, p_workspace, p_agent, c.grantee, c.class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum
             FROM atrium_memory_classes(p_id, p_user, p_workspace, p_agent, p_visibility) c
            CROSS JOIN atrium_term_rows(p_tsv) t
         $$`,
    );
    await runner.query('DROP FUNCTION atrium_postings(uuid, text, uuid, uuid, uuid, smallint, tsvector)');
    await runner.query('DROP TABLE memory_postings');
  }
}
