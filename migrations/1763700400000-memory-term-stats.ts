import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * BM25's statistics (documents, total length, and per lexeme the documents that contain it),
 * kept at write time per visibility class, so that a search reads them in O(query terms)
 * instead of counting the caller's visible rows (docs/retrieval.md, "BM25 statistics").
 *
 * A row of `memory_term_stats` is one change to one class of one scope:
 * - `class` 0 (`shared`): rows every agent of the workspace reads (visibility NULL or
 *   `workspace`), and every row of a user's personal memory (workspace NULL), per owner;
 * - `class` 1 (`private`): rows only their owner reads by default (`agent_only`, `restricted`);
 * - `class` 2 (`granted`): a `restricted` row as seen by one grantee (`grantee_agent_id`), one
 *   per grant to an agent other than the owner.
 * `lexeme` '' carries the class's document count and total length (`length(tsvector)`); any
 * other lexeme its document frequency. A reader sums the classes it can see (visibility.ts,
 * termStatsClassCondition), which are exactly its visible rows: a row it cannot see is in no
 * class it sums, so it never moves the reader's scores.
 *
 * Only live rows without an expiry are counted here (not deleted, not superseded, expires_at
 * NULL): whether a row with an expiry is still current depends on the clock, so a search counts
 * those itself. Writers only INSERT change rows (`compacted` false): no row is updated by two
 * transactions, so no writer waits for another or deadlocks on a hot counter. The compactor
 * (maintenance/term-stats-compactor.ts, one instance at a time) folds them into one `compacted`
 * row per key. A reader sums both kinds, so its figures are exact before and after a fold.
 *
 * Kept by triggers, so every path that writes memories or grants (the service, imports,
 * erasure, the expiry purge, a fixture's INSERT) keeps them right:
 * - on memories (row level, inherited by the partitions): the old row's contribution out, the
 *   new one's in, when anything that decides it changes. Named to sort before PostgreSQL's
 *   `RI_ConstraintTrigger_*`: AFTER triggers of one event fire in name order, and a deleted
 *   memory's grants must still be there (not yet removed by ON DELETE CASCADE) when its
 *   granted classes are taken out;
 * - on grants: the grantee's class in or out, after locking the memory row FOR SHARE, so a
 *   grant and a change of its memory in two concurrent transactions are applied one after the
 *   other, each seeing the other's committed result;
 * - TRUNCATE of memories empties the table.
 * The existing rows are counted here, folded. Reading every memory once takes longer than the
 * service's statement timeout on a large table: the migration lifts it for its transaction.
 */
export class MemoryTermStats1763700400000 implements MigrationInterface {
  name = 'MemoryTermStats1763700400000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE TABLE memory_term_stats (
         id                bigserial PRIMARY KEY,
         user_id           text NOT NULL,
         workspace_id      uuid,
         agent_id          uuid,
         grantee_agent_id  uuid,
         class             smallint NOT NULL CHECK (class IN (0, 1, 2)),
         lexeme            text NOT NULL,
         docs              integer NOT NULL,
         length_sum        bigint NOT NULL,
         compacted         boolean NOT NULL DEFAULT false
       )`,
    );
    // What a search reads: one scope's rows for the query's lexemes.
    await runner.query('CREATE INDEX memory_term_stats_read_idx ON memory_term_stats (user_id, workspace_id, lexeme)');
    // The compactor's target: one folded row per key.
    await runner.query(
      `CREATE UNIQUE INDEX memory_term_stats_folded_key ON memory_term_stats (user_id, workspace_id, lexeme, agent_id, grantee_agent_id, class)
         NULLS NOT DISTINCT WHERE compacted`,
    );
    // The compactor's queue: change rows, oldest first.
    await runner.query('CREATE INDEX memory_term_stats_pending_idx ON memory_term_stats (id) WHERE NOT compacted');
    // Folded rows left at zero, for the compactor to remove without reading the table.
    await runner.query('CREATE INDEX memory_term_stats_empty_idx ON memory_term_stats (id) WHERE compacted AND docs = 0');
    // The rows a search counts itself: live rows with an expiry, by scope.
    await runner.query(
      `CREATE INDEX memories_expiring_scope_idx ON memories (user_id, workspace_id)
         WHERE expires_at IS NOT NULL AND deleted_at IS NULL AND superseded_at IS NULL`,
    );

    await runner.query(
      `CREATE FUNCTION atrium_term_rows(tsv tsvector) RETURNS TABLE (lexeme text, docs integer, length_sum integer)
         LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
           SELECT l, 1, 0 FROM unnest(tsvector_to_array(tsv)) l
           UNION ALL SELECT '', 1, length(tsv)
         $$`,
    );
    await runner.query(
      `CREATE FUNCTION atrium_term_deltas(p_user text, p_workspace uuid, p_agent uuid, p_grantee uuid, p_class smallint,
                                          p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE sql AS $$
           INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
           SELECT p_user, p_workspace, p_agent, p_grantee, p_class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum
             FROM atrium_term_rows(p_tsv) t
         $$`,
    );
    // One memory's contribution (its own class, and a granted class per grant), with a sign.
    await runner.query(
      `CREATE FUNCTION atrium_memory_term_deltas(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text,
                                                 p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE sql AS $$
           INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
           SELECT p_user, p_workspace, p_agent, c.grantee, c.class, t.lexeme, p_sign * t.docs, p_sign * t.length_sum
             FROM (SELECT CAST(NULL AS uuid) AS grantee,
                          CAST(CASE WHEN p_visibility IS NULL OR p_visibility = 'workspace' THEN 0 ELSE 1 END AS smallint) AS class
                   UNION ALL
                   SELECT g.grantee_agent_id, CAST(2 AS smallint) FROM memory_visibility_grants g
                    WHERE p_visibility = 'restricted' AND g.memory_id = p_id AND g.user_id = p_user
                      AND g.workspace_id = p_workspace AND g.grantee_agent_id IS DISTINCT FROM p_agent) c
            CROSS JOIN atrium_term_rows(p_tsv) t
         $$`,
    );
    await runner.query(
      `CREATE FUNCTION atrium_memory_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
           was_counted boolean := false;
           is_counted boolean := false;
         BEGIN
           IF TG_OP <> 'INSERT' THEN
             was_counted := OLD.deleted_at IS NULL AND OLD.superseded_at IS NULL AND OLD.expires_at IS NULL;
           END IF;
           IF TG_OP <> 'DELETE' THEN
             is_counted := NEW.deleted_at IS NULL AND NEW.superseded_at IS NULL AND NEW.expires_at IS NULL;
           END IF;
           IF TG_OP = 'UPDATE' AND was_counted = is_counted AND (NOT was_counted OR (
                OLD.user_id = NEW.user_id AND OLD.workspace_id IS NOT DISTINCT FROM NEW.workspace_id
                AND OLD.agent_id IS NOT DISTINCT FROM NEW.agent_id AND OLD.visibility IS NOT DISTINCT FROM NEW.visibility
                AND OLD.content_tsv = NEW.content_tsv)) THEN
             RETURN NULL;
           END IF;
           IF was_counted THEN
             PERFORM atrium_memory_term_deltas(OLD.id, OLD.user_id, OLD.workspace_id, OLD.agent_id, OLD.visibility, OLD.content_tsv, -1);
           END IF;
           IF is_counted THEN
             PERFORM atrium_memory_term_deltas(NEW.id, NEW.user_id, NEW.workspace_id, NEW.agent_id, NEW.visibility, NEW.content_tsv, 1);
           END IF;
           RETURN NULL;
         END
       $$`,
    );
    await runner.query(
      `CREATE FUNCTION atrium_grant_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
           m record;
         BEGIN
           IF TG_OP <> 'INSERT' THEN
             SELECT x.agent_id, x.workspace_id, x.visibility, x.content_tsv,
                    x.deleted_at IS NULL AND x.superseded_at IS NULL AND x.expires_at IS NULL AS counted
               INTO m FROM memories x WHERE x.id = OLD.memory_id AND x.user_id = OLD.user_id FOR SHARE;
             IF FOUND AND m.counted AND m.visibility = 'restricted' AND m.workspace_id = OLD.workspace_id
                AND m.agent_id IS DISTINCT FROM OLD.grantee_agent_id THEN
               PERFORM atrium_term_deltas(OLD.user_id, OLD.workspace_id, m.agent_id, OLD.grantee_agent_id, CAST(2 AS smallint), m.content_tsv, -1);
             END IF;
           END IF;
           IF TG_OP <> 'DELETE' THEN
             SELECT x.agent_id, x.workspace_id, x.visibility, x.content_tsv,
                    x.deleted_at IS NULL AND x.superseded_at IS NULL AND x.expires_at IS NULL AS counted
               INTO m FROM memories x WHERE x.id = NEW.memory_id AND x.user_id = NEW.user_id FOR SHARE;
             IF FOUND AND m.counted AND m.visibility = 'restricted' AND m.workspace_id = NEW.workspace_id
                AND m.agent_id IS DISTINCT FROM NEW.grantee_agent_id THEN
               PERFORM atrium_term_deltas(NEW.user_id, NEW.workspace_id, m.agent_id, NEW.grantee_agent_id, CAST(2 AS smallint), m.content_tsv, 1);
             END IF;
           END IF;
           RETURN NULL;
         END
       $$`,
    );
    await runner.query(
      `CREATE FUNCTION atrium_truncate_term_stats() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           DELETE FROM memory_term_stats;
           RETURN NULL;
         END
       $$`,
    );
    await runner.query(
      `CREATE TRIGGER "A_memory_term_stats" AFTER INSERT OR UPDATE OR DELETE ON memories
         FOR EACH ROW EXECUTE FUNCTION atrium_memory_term_stats()`,
    );
    await runner.query(
      `CREATE TRIGGER grant_term_stats AFTER INSERT OR UPDATE OR DELETE ON memory_visibility_grants
         FOR EACH ROW EXECUTE FUNCTION atrium_grant_term_stats()`,
    );
    await runner.query(
      'CREATE TRIGGER truncate_term_stats AFTER TRUNCATE ON memories FOR EACH STATEMENT EXECUTE FUNCTION atrium_truncate_term_stats()',
    );
    // Every count from scratch, folded: the existing rows now, and a bulk load that ran with
    // the triggers off (the benchmark's seeding) later.
    await runner.query(
      `CREATE FUNCTION atrium_rebuild_term_stats() RETURNS void LANGUAGE sql AS $$
         DELETE FROM memory_term_stats;
         INSERT INTO memory_term_stats (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum, compacted)
         SELECT c.user_id, c.workspace_id, c.agent_id, c.grantee, c.class, t.lexeme, sum(t.docs), sum(t.length_sum), true
           FROM (SELECT m.user_id, m.workspace_id, m.agent_id, CAST(NULL AS uuid) AS grantee,
                        CAST(CASE WHEN m.visibility IS NULL OR m.visibility = 'workspace' THEN 0 ELSE 1 END AS smallint) AS class, m.content_tsv
                   FROM memories m WHERE m.deleted_at IS NULL AND m.superseded_at IS NULL AND m.expires_at IS NULL
                 UNION ALL
                 SELECT m.user_id, m.workspace_id, m.agent_id, g.grantee_agent_id, CAST(2 AS smallint), m.content_tsv
                   FROM memories m JOIN memory_visibility_grants g
                     ON g.memory_id = m.id AND g.user_id = m.user_id AND g.workspace_id = m.workspace_id
                  WHERE m.visibility = 'restricted' AND m.deleted_at IS NULL AND m.superseded_at IS NULL AND m.expires_at IS NULL
                    AND g.grantee_agent_id IS DISTINCT FROM m.agent_id) c
          CROSS JOIN atrium_term_rows(c.content_tsv) t
          GROUP BY c.user_id, c.workspace_id, c.agent_id, c.grantee, c.class, t.lexeme;
       $$`,
    );
    await runner.query('SELECT atrium_rebuild_term_stats()');
    await runner.query('ANALYZE memory_term_stats');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER truncate_term_stats ON memories');
    await runner.query('DROP TRIGGER grant_term_stats ON memory_visibility_grants');
    await runner.query('DROP TRIGGER "A_memory_term_stats" ON memories');
    await runner.query('DROP FUNCTION atrium_rebuild_term_stats()');
    await runner.query('DROP FUNCTION atrium_truncate_term_stats()');
    await runner.query('DROP FUNCTION atrium_grant_term_stats()');
    await runner.query('DROP FUNCTION atrium_memory_term_stats()');
    await runner.query('DROP FUNCTION atrium_memory_term_deltas(uuid, text, uuid, uuid, text, tsvector, integer)');
    await runner.query('DROP FUNCTION atrium_term_deltas(text, uuid, uuid, uuid, smallint, tsvector, integer)');
    await runner.query('DROP FUNCTION atrium_term_rows(tsvector)');
    await runner.query('DROP INDEX memories_expiring_scope_idx');
    await runner.query('DROP TABLE memory_term_stats');
  }
}
