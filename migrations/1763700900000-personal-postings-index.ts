import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each posting in one index: the personal rows' postings (no workspace) in a new partial index
 * keyed (user, lexeme, memory), the workspace rows' in the reader index alone (migration
 * 1763700800000); the (user, workspace, lexeme, memory) index over every posting goes.
 *
 * Why: a workspace memory's ~11 postings went into both indexes, the larger of which (1.5 GB at
 * the 1M benchmark) a workspace search never reads: a second descent and leaf change per posting
 * on every workspace write, and 1.3 GB of index at 1M memories that only the triggers used
 * (docs/bench-notes/write-path.md, "Each posting in one index": the database's CPU a write did
 * not move measurably; the index is 268 MB instead of 1,565). The personal index holds only
 * what a user-scope search reads, without the workspace column in its key.
 *
 * The triggers found a workspace memory's postings by (user, workspace, lexeme, memory) in the
 * dropped index. They now name the reader as well, so the reader index finds them: one delete
 * per class the memory counts in (atrium_memory_classes, the same classes its postings were
 * inserted for), the shared class by `reader IS NULL`, the private and granted ones by the
 * owner and the grantee; the grants trigger by its grantee.
 *
 * Building the index reads the personal postings once; writes to memory_postings wait for it.
 */
export class PersonalPostingsIndex1763700900000 implements MigrationInterface {
  name = 'PersonalPostingsIndex1763700900000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE INDEX memory_postings_personal_idx ON memory_postings (user_id, lexeme, memory_id)
         INCLUDE (class, agent_id, grantee_agent_id, tf, dl)
         WHERE workspace_id IS NULL`,
    );
    await runner.query('DROP INDEX memory_postings_read_idx');
    // One range of the reader index per class the postings were inserted for.
    await this.termDeltas(
      runner,
      `DECLARE
           k record;
           v_reader uuid;`,
      `FOR k IN SELECT * FROM atrium_memory_classes(p_id, p_user, p_workspace, p_agent, p_visibility) LOOP
               v_reader := COALESCE(k.grantee, CASE WHEN k.class = 1 THEN p_agent END);
               IF v_reader IS NULL THEN
                 DELETE FROM memory_postings
                  WHERE user_id = p_user AND workspace_id = p_workspace
                    AND COALESCE(grantee_agent_id, CASE WHEN class = 1 THEN agent_id END) IS NULL
                    AND lexeme = ANY(tsvector_to_array(p_tsv)) AND memory_id = p_id AND class = k.class;
               ELSE
                 DELETE FROM memory_postings
                  WHERE user_id = p_user AND workspace_id = p_workspace
                    AND COALESCE(grantee_agent_id, CASE WHEN class = 1 THEN agent_id END) = v_reader
                    AND lexeme = ANY(tsvector_to_array(p_tsv)) AND memory_id = p_id AND class = k.class;
               END IF;
             END LOOP;`,
    );
    await this.grantPostings(runner, 'AND COALESCE(grantee_agent_id, CASE WHEN class = 1 THEN agent_id END) = OLD.grantee_agent_id');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query(
      `CREATE INDEX memory_postings_read_idx ON memory_postings (user_id, workspace_id, lexeme, memory_id)
         INCLUDE (class, agent_id, grantee_agent_id, tf, dl)`,
    );
    await runner.query('DROP INDEX memory_postings_personal_idx');
    // As migration 1763700700000 left it: the workspace rows' postings by (user, workspace, lexeme, memory).
    await this.termDeltas(
      runner,
      '',
      `DELETE FROM memory_postings
              WHERE user_id = p_user AND workspace_id = p_workspace AND lexeme = ANY(tsvector_to_array(p_tsv)) AND memory_id = p_id;`,
    );
    await this.grantPostings(runner, '');
  }

  /**
   * The memory trigger's function: the statistics' change rows and the postings as before, a
   * workspace memory's postings taken out by `workspaceDelete` (PL/pgSQL, with `declare`'s variables).
   */
  private async termDeltas(runner: QueryRunner, declare: string, workspaceDelete: string): Promise<void> {
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_memory_term_deltas(p_id uuid, p_user text, p_workspace uuid, p_agent uuid, p_visibility text,
                                                            p_tsv tsvector, p_sign integer) RETURNS void
         LANGUAGE plpgsql AS $$
         ${declare}
         BEGIN
           INSERT INTO memory_term_changes (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum)
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
             ${workspaceDelete}
           END IF;
         END
       $$`,
    );
  }

  /** The grants trigger's function (migration 1763700600000), its delete narrowed by `reader` (a condition, or nothing). */
  private async grantPostings(runner: QueryRunner, reader: string): Promise<void> {
    await runner.query(
      `CREATE OR REPLACE FUNCTION atrium_grant_postings() RETURNS trigger LANGUAGE plpgsql AS $$
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
                WHERE user_id = OLD.user_id AND workspace_id = OLD.workspace_id ${reader}
                  AND lexeme = ANY(tsvector_to_array(m.content_tsv))
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
  }
}
