import type { AgentScope, MemoryScope } from '../../src/common/scope/memory-scope';
import { parseMemoryScope } from '../../src/common/scope/parse-memory-scope';
import { MemoryAccess } from '../../src/database/access/memory-access';
import type { RankedTextResult } from '../../src/database/access/search-statement';
import { applyMemoryScope, modesOthersRead, scopeParameters, termStatsCondition } from '../../src/database/access/visibility';
import { MemoryEntity } from '../../src/database/entities/memory.entity';
import { TermStatsCompactor } from '../../src/database/maintenance/term-stats-compactor';
import { toVectorLiteral } from '../../src/database/vector';
import { rankBm25 } from '../../src/retrieval/bm25-ranking';
import { newId, newUser } from '../support/ids';
import { quickIngest } from '../support/quick-ingest';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * BM25 statistics kept at write time (migration 1763700400000, bm25-statement.ts,
 * retrieval/bm25-ranking.ts): after random sequences of every kind of change they, and the
 * postings the ranked pass reads (migration 1763700600000), equal a recount of each caller's
 * visible rows; another agent's private writes leave a caller's
 * scores bit-for-bit unchanged; and the MaxScore pass ranks exactly as scoring every match.
 */
const VOCABULARY = ['harbour', 'ferry', 'lantern', 'kiln', 'glaze', 'orchard', 'walnut', 'meadow', 'copper', 'falcon', 'river', 'quartz'];

/** A small seeded generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('BM25 statistics kept at write time', () => {
  let t: TestApp;
  let access: MemoryAccess;
  let dims: number;

  beforeAll(async () => {
    t = await createTestApp({ TERM_STATS_COMPACT_INTERVAL_MS: '0' });
    access = t.app.get(MemoryAccess);
    dims = t.env.EMBEDDING_DIMENSIONS;
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * The best 10 from the postings (rankBm25), checked against the per-query statement, which
   * counts N, the lengths and the frequencies over the rows it reads: the same rows in the same
   * order, the same scores.
   */
  const rankedAsPerQuery = async (scope: MemoryScope, words: string[], q: string): Promise<RankedTextResult> => {
    const kept = await rankBm25(access, scope, words, q, 10);
    const counted = await access.textSearch({ statement: 'full-text', scope, filters: {}, words, q, k: 10, population: null });
    expect(kept.rows.map((r) => r.memory.id)).toEqual(counted.rows.map((r) => r.memory.id));
    kept.rows.forEach((r, j) => expect(r.textRank).toBeCloseTo(counted.rows[j].textRank as number, 9));
    return kept;
  };

  it('class the visibility modes as the read rule does (the triggers name them)', () => {
    expect(modesOthersRead('all')).toEqual(['workspace']);
    expect(modesOthersRead('grantees')).toEqual(['restricted']);
    expect(modesOthersRead('none')).toEqual(['agent_only']);
  });

  /** Documents, total length and document frequencies of exactly the rows `scope` reads now. */
  async function recount(scope: MemoryScope): Promise<{ n: number; lengthSum: number; df: Record<string, number> }> {
    const qb = t.dataSource.createQueryBuilder(MemoryEntity, 'm').select('m.content_tsv', 'tsv');
    applyMemoryScope(qb, 'm', scope, 'read');
    const [sql, parameters] = qb.getQueryAndParameters();
    const [totals]: { n: string; len: string }[] = await t.dataSource.query(
      `SELECT count(*) AS n, COALESCE(sum(length(v.tsv)), 0) AS len FROM (${sql}) v`,
      parameters,
    );
    const frequencies: { lexeme: string; df: string }[] = await t.dataSource.query(
      `SELECT u.lexeme, count(*) AS df FROM (${sql}) v CROSS JOIN LATERAL unnest(tsvector_to_array(v.tsv)) u(lexeme) GROUP BY u.lexeme`,
      parameters,
    );
    return { n: Number(totals.n), lengthSum: Number(totals.len), df: Object.fromEntries(frequencies.map((f) => [f.lexeme, Number(f.df)])) };
  }

  /** Every (memory, lexeme, tf, length) of the rows `scope` reads now that have no expiry, recounted from the rows. */
  async function recountedPostings(scope: MemoryScope): Promise<string[]> {
    const qb = t.dataSource.createQueryBuilder(MemoryEntity, 'm').select('m.id', 'id').addSelect('m.content_tsv', 'tsv');
    applyMemoryScope(qb, 'm', scope, 'read');
    qb.andWhere('m.expires_at IS NULL');
    const [sql, parameters] = qb.getQueryAndParameters();
    const rows: { p: string }[] = await t.dataSource.query(
      `SELECT concat_ws(' ', v.id, u.lexeme, cardinality(u.positions), length(v.tsv)) AS p FROM (${sql}) v CROSS JOIN LATERAL unnest(v.tsv) u`,
      parameters,
    );
    return rows.map((r) => r.p).sort();
  }

  /** The postings the ranked pass reads for `scope`: the classes its statistics are summed from. */
  async function keptPostings(scope: MemoryScope): Promise<string[]> {
    const [sql, parameters] = t.dataSource.driver.escapeQueryWithParameters(
      `SELECT concat_ws(' ', p.memory_id, p.lexeme, p.tf, p.dl) AS p FROM memory_postings p WHERE ${termStatsCondition('p', scope)}`,
      scopeParameters(scope),
    );
    const rows: { p: string }[] = await t.dataSource.query(sql, parameters);
    return rows.map((r) => r.p).sort();
  }

  async function kept(scope: MemoryScope): Promise<{ n: number; lengthSum: number; df: Record<string, number> }> {
    const stats = await access.termStatistics({ statement: 'term-stats', scope, words: VOCABULARY });
    return { n: stats.n, lengthSum: stats.lengthSum, df: Object.fromEntries([...stats.df].filter(([, df]) => df !== 0)) };
  }

  it('equal a recount of every caller after random sequences of writes, edits, expiry, deletes, grants and moves', async () => {
    const user = newUser('termstats');
    const [w1, w2] = [newId(), newId()];
    const agents = [newId(), newId(), newId()];
    const outsider = newId();
    const next = random(20261129);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const text = () => Array.from({ length: 2 + Math.floor(next() * 6) }, () => pick(VOCABULARY)).join(' ');
    const expiry = () => pick([null, null, null, null, '2099-01-01T00:00:00Z', '2001-01-01T00:00:00Z']);
    const ids: string[] = [];
    const vector = toVectorLiteral(new Array<number>(dims).fill(0.1));

    const insert = async (): Promise<void> => {
      const id = newId();
      const personal = next() < 0.2;
      const owner = personal ? null : pick([...agents, null]);
      const visibility = personal
        ? null
        : owner === null
          ? pick([null, 'workspace'])
          : pick(['workspace', 'agent_only', 'restricted', null]);
      await t.dataSource.query(
        `INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, source_site, embedding, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'test', CAST($7 AS vector), $8)`,
        [id, user, personal ? null : w1, owner, visibility, text(), vector, expiry()],
      );
      ids.push(id);
    };
    const change = async (sql: string, ...values: unknown[]): Promise<void> => {
      if (ids.length === 0) return;
      await t.dataSource.query(sql, [pick(ids), user, ...values]);
    };
    const operations: (() => Promise<void>)[] = [
      insert,
      insert,
      insert,
      () => change('UPDATE memories SET content = $3 WHERE id = $1 AND user_id = $2', text()),
      () =>
        change(
          `UPDATE memories SET visibility = $3 WHERE id = $1 AND user_id = $2 AND workspace_id IS NOT NULL`,
          pick(['workspace', 'agent_only', 'restricted']),
        ),
      () => change('UPDATE memories SET deleted_at = now() WHERE id = $1 AND user_id = $2'),
      () => change('UPDATE memories SET superseded_at = now() WHERE id = $1 AND user_id = $2'),
      () => change('UPDATE memories SET expires_at = $3 WHERE id = $1 AND user_id = $2', expiry()),
      () => change('UPDATE memories SET workspace_id = $3 WHERE id = $1 AND user_id = $2 AND workspace_id IS NOT NULL', pick([w1, w2])),
      () => change('DELETE FROM memories WHERE id = $1 AND user_id = $2'),
      // Grants go to restricted rows (the ones they open) most of the time, to any workspace row otherwise.
      ...[`m.visibility = 'restricted'`, `m.visibility = 'restricted'`, 'TRUE'].map(
        (which) => () =>
          t.dataSource.query(
            `INSERT INTO memory_visibility_grants (memory_id, user_id, workspace_id, grantee_agent_id, granted_by_agent_id)
             SELECT m.id, m.user_id, m.workspace_id, $2, COALESCE(m.agent_id, $2) FROM memories m
              WHERE m.user_id = $1 AND m.workspace_id IS NOT NULL AND ${which}
              ORDER BY md5(CAST(m.id AS text) || $3) LIMIT 1
             ON CONFLICT DO NOTHING`,
            [user, pick(agents), String(next())],
          ),
      ),
      () => change('DELETE FROM memory_visibility_grants WHERE memory_id = $1 AND user_id = $2 AND grantee_agent_id = $3', pick(agents)),
      // a grant that exists (the line above mostly names none)
      () =>
        t.dataSource.query(
          `DELETE FROM memory_visibility_grants g USING (
             SELECT memory_id, grantee_agent_id FROM memory_visibility_grants WHERE user_id = $1 ORDER BY md5(CAST(memory_id AS text) || $2) LIMIT 1) x
            WHERE g.user_id = $1 AND g.memory_id = x.memory_id AND g.grantee_agent_id = x.grantee_agent_id`,
          [user, String(next())],
        ),
      async () => {
        await t.app.get(TermStatsCompactor).fold(7);
      },
    ];

    const scopes: MemoryScope[] = [{ kind: 'user', userId: user }];
    const agentScopes: AgentScope[] = [
      { kind: 'all' },
      { kind: 'self' },
      { kind: 'others' },
      { kind: 'agents', agentIds: [agents[0], agents[2]] },
    ];
    for (const workspaceId of [w1, w2])
      for (const agentId of [...agents, outsider])
        for (const agentScope of agentScopes) scopes.push({ kind: 'workspace', userId: user, workspaceId, agentId, agentScope });

    // Granted rows' documents (class 2), folded or not, after each round: the grants are picked
    // by random ids, so whether any is left at the very end is chance (a CI run saw none).
    const grantedDocs = async (): Promise<number> =>
      Number(
        (
          await t.dataSource.query(
            `SELECT COALESCE(sum(docs), 0) AS n FROM (
               SELECT docs FROM memory_term_stats WHERE user_id = $1 AND class = 2 AND lexeme = ''
               UNION ALL SELECT docs FROM memory_term_changes WHERE user_id = $1 AND class = 2 AND lexeme = '') d`,
            [user],
          )
        )[0].n,
      );
    let mostGranted = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 40; i++) await pick(operations)();
      mostGranted = Math.max(mostGranted, await grantedDocs());
      for (const scope of scopes) expect({ scope, stats: await kept(scope) }).toEqual({ scope, stats: await recount(scope) });
      for (const scope of scopes)
        expect({ scope, postings: await keptPostings(scope) }).toEqual({ scope, postings: await recountedPostings(scope) });
    }
    // Folded or not, the same figures; and a fold leaves one row per key.
    await t.app.get(TermStatsCompactor).fold();
    for (const scope of scopes) expect({ scope, stats: await kept(scope) }).toEqual({ scope, stats: await recount(scope) });
    const [{ pending }]: { pending: string }[] = await t.dataSource.query(
      'SELECT count(*) AS pending FROM memory_term_changes WHERE user_id = $1',
      [user],
    );
    expect(Number(pending)).toBe(0);
    // Deleted and moved rows brought keys to zero on the way: the fold removed them, and wrote
    // nothing but folded rows to the statistics table.
    const [{ zero, unfolded }]: { zero: string; unfolded: string }[] = await t.dataSource.query(
      'SELECT count(*) FILTER (WHERE docs = 0) AS zero, count(*) FILTER (WHERE NOT compacted) AS unfolded FROM memory_term_stats WHERE user_id = $1',
      [user],
    );
    expect({ zero: Number(zero), unfolded: Number(unfolded) }).toEqual({ zero: 0, unfolded: 0 });
    // The sequence was not trivial: rows of every kind of visibility are still there.
    const [{ kinds }]: { kinds: string }[] = await t.dataSource.query(
      "SELECT count(DISTINCT COALESCE(visibility, '-')) AS kinds FROM memories WHERE user_id = $1 AND deleted_at IS NULL",
      [user],
    );
    expect(Number(kinds)).toBe(4);
    // And granted rows were there to count, after at least one round.
    expect(mostGranted).toBeGreaterThan(0);
  });

  it('are folded in the background by the compactor', async () => {
    const second = await createTestApp({ TERM_STATS_COMPACT_INTERVAL_MS: '50' });
    try {
      const user = newUser('folding');
      for (const text of ['the falcon over the river', 'quartz by the river bank', 'a falcon and a heron'])
        await second
          .http()
          .post('/v1/memories/ingest/quick')
          .send({ user_id: user, source_site: 'test', conversation: text, skip_extraction: true });
      const pending = async (): Promise<number> =>
        Number((await second.dataSource.query('SELECT count(*) AS n FROM memory_term_changes'))[0].n);
      const deadline = Date.now() + 20_000;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await pending()).toBe(0);
      const [{ docs }]: { docs: string }[] = await second.dataSource.query(
        "SELECT sum(docs) AS docs FROM memory_term_stats WHERE user_id = $1 AND lexeme = '' AND compacted",
        [user],
      );
      expect(Number(docs)).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('vacuums the change table itself once an instance has folded TERM_STATS_VACUUM_ROWS rows', async () => {
    const vacuuming = await createTestApp({ TERM_STATS_COMPACT_INTERVAL_MS: '0', TERM_STATS_VACUUM_ROWS: '3' });
    try {
      const vacuums = async (): Promise<number> =>
        Number(
          (await vacuuming.dataSource.query("SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'memory_term_changes'"))[0]
            .n,
        );
      const before = await vacuums();
      await quickIngest(vacuuming, { user: newUser('vacuumed') }, 'the kestrel nests above the quarry');
      const folded = await vacuuming.app.get(TermStatsCompactor).fold();
      expect(folded).toBeGreaterThanOrEqual(3); // the row's lexemes and its length, at least
      // The statistics reach the view once the vacuuming connection reports them (within a second or so).
      const deadline = Date.now() + 10_000;
      while ((await vacuums()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await vacuums()).toBeGreaterThan(before);
    } finally {
      await vacuuming.close();
    }
  });

  describe('for one caller', () => {
    const user = newUser('sidechannel');
    const workspace = newId();
    const [reader, other] = [newId(), newId()];
    const ingest = (agent: string, text: string, visibility: string): Promise<string> =>
      quickIngest(t, { user, workspace, agent }, text, visibility);
    const ranked = async (agentScope: string, words: string[]) => {
      const scope = parseMemoryScope({ user_id: user, workspace_id: workspace, agent_id: reader, agent_scope: agentScope });
      const ranking = await rankBm25(access, scope, words, toVectorLiteral(new Array<number>(dims).fill(0.05)), 20);
      return ranking.rows.map((r) => [r.memory.id, r.textRank]);
    };

    it('do not move when another agent writes rows the caller cannot see: scores bit-for-bit the same', async () => {
      await ingest(reader, 'the harbour ferry leaves at dawn for the lantern island', 'agent_only');
      await ingest(other, 'ferry tickets for the island are sold at the harbour kiosk', 'workspace');
      await ingest(other, 'the copper kiln by the meadow burns through the night', 'workspace');
      const words = ['harbour', 'ferry', 'kiln'];
      const before = { all: await ranked('all', words), self: await ranked('self', words), others: await ranked('others', words) };
      expect(before.all.length).toBe(3);

      await ingest(other, 'harbour harbour ferry kiln: the private harbour log of the other agent', 'agent_only');
      await ingest(other, 'a restricted ferry note about the harbour and the kiln, granted to nobody', 'restricted');
      expect({ all: await ranked('all', words), self: await ranked('self', words), others: await ranked('others', words) }).toEqual(before);
      await t.app.get(TermStatsCompactor).fold();
      expect({ all: await ranked('all', words), self: await ranked('self', words), others: await ranked('others', words) }).toEqual(before);

      // The same write, visible to the caller, does move them (the comparison above can fail).
      await ingest(other, 'a shared ferry note about the harbour and the kiln', 'workspace');
      expect(await ranked('all', words)).not.toEqual(before.all);
    });

    it('do not move when another user writes, even with the same workspace and agent ids: scores bit-for-bit the same', async () => {
      const words = ['harbour', 'ferry', 'kiln', 'walnut'];
      await ingest(reader, 'a walnut tree by the harbour', 'workspace');
      const mine = parseMemoryScope({ user_id: user });
      const personal = async () =>
        (await rankBm25(access, mine, words, toVectorLiteral(new Array<number>(dims).fill(0.05)), 20)).rows.map((r) => [
          r.memory.id,
          r.textRank,
        ]);
      await quickIngest(t, { user }, 'my own walnut harbour ferry list');
      const before = { all: await ranked('all', words), self: await ranked('self', words), user: await personal() };
      expect(before.all.length).toBeGreaterThan(0);
      expect(before.user.length).toBe(1);

      // Another tenant reuses this workspace's id and these agent ids, and writes the same words everywhere.
      const stranger = newUser('sidechannel-other');
      const notes = ['walnut harbour ferry kiln', 'a ferry to the walnut harbour', 'the kiln by the harbour', 'walnut ferry schedules'];
      for (const visibility of ['workspace', 'agent_only', 'restricted']) {
        for (const [i, agent] of [reader, other].entries()) {
          await quickIngest(t, { user: stranger, workspace, agent }, `${notes[i * 2]}, ${visibility}`, visibility);
          await quickIngest(t, { user: stranger, workspace, agent }, `${notes[i * 2 + 1]}, ${visibility}`, visibility);
        }
      }
      await quickIngest(t, { user: stranger }, 'walnut walnut harbour ferry kiln in the personal memory of someone else');
      const after = async () => ({ all: await ranked('all', words), self: await ranked('self', words), user: await personal() });
      expect(await after()).toEqual(before);
      await t.app.get(TermStatsCompactor).fold();
      expect(await after()).toEqual(before);
    });
  });

  it('rank from the postings exactly as the per-query statement counts and scores the rows it reads', async () => {
    const user = newUser('maxscore');
    const next = random(4242);
    // Zipf-like: early words are common, late ones rare.
    const words = [...VOCABULARY, 'amber', 'basalt', 'cinder', 'dune', 'ember', 'fjord', 'grove', 'heron'];
    const word = () => words[Math.min(words.length - 1, Math.floor(words.length * next() * next()))];
    const vector = toVectorLiteral(new Array<number>(dims).fill(0.1));
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 3 + Math.floor(next() * 8) }, word).join(' ');
      await t.dataSource.query(
        `INSERT INTO memories (id, user_id, content, source_site, embedding) VALUES ($1, $2, $3, 'test', CAST($4 AS vector))`,
        [newId(), user, text, vector],
      );
    }
    const scope: MemoryScope = { kind: 'user', userId: user };
    const q = toVectorLiteral(new Array<number>(dims).fill(0.05));
    let ranked = 0;
    for (let i = 0; i < 30; i++) {
      const query = Array.from({ length: 2 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]);
      const kept = await rankedAsPerQuery(scope, query, q);
      if (kept.rows.length > 0) ranked++;
      expect(kept.lexemes > 0).toBe(kept.rows.length > 0);
    }
    expect(ranked).toBeGreaterThan(20);
  });

  it('return only rows the read predicate lets through, whatever the postings name', async () => {
    const user = newUser('door');
    const workspaceId = newId();
    const [writer, reader] = [newId(), newId()];
    const secret = await quickIngest(
      t,
      { user, workspace: workspaceId, agent: writer },
      'amber basalt: the private note of the writer',
      'agent_only',
    );
    const shared = await quickIngest(t, { user, workspace: workspaceId, agent: writer }, 'an amber lamp for everyone', 'workspace');
    const scope: MemoryScope = { kind: 'workspace', userId: user, workspaceId, agentId: reader, agentScope: { kind: 'all' } };
    const q = toVectorLiteral(new Array<number>(dims).fill(0.05));
    const found = async () => (await rankBm25(access, scope, ['amber', 'basalt'], q, 10)).rows.map((r) => r.memory.id);
    expect(await found()).toEqual([shared]);
    // Postings that file the private note as shared (class 0), as a wrong write or a broken
    // trigger would: the pass then scores it for the reader, and the door still drops it.
    await t.dataSource.query(
      `INSERT INTO memory_postings (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, memory_id, tf, dl)
       SELECT user_id, workspace_id, agent_id, NULL, 0, lexeme, memory_id, 40, dl
         FROM memory_postings WHERE user_id = $1 AND memory_id = $2`,
      [user, secret],
    );
    expect(await found()).toEqual([shared]);
  });

  it("rank a workspace from the postings exactly as the per-query statement ranks each agent's visible rows (private, restricted, granted, expiring), under every agent_scope", async () => {
    const user = newUser('postings');
    const workspaceId = newId();
    const agents = [newId(), newId(), newId()];
    const next = random(777);
    const words = [...VOCABULARY, 'amber', 'basalt', 'cinder', 'dune'];
    const word = () => words[Math.min(words.length - 1, Math.floor(words.length * next() * next()))];
    const vector = toVectorLiteral(new Array<number>(dims).fill(0.1));
    const ids: string[] = [];
    for (let i = 0; i < 240; i++) {
      const id = newId();
      const owner = agents[Math.floor(next() * agents.length)];
      const visibility = ['workspace', 'agent_only', 'restricted', 'restricted'][Math.floor(next() * 4)];
      const expiry = next() < 0.15 ? '2099-01-01T00:00:00Z' : null;
      const text = Array.from({ length: 3 + Math.floor(next() * 8) }, word).join(' ');
      await t.dataSource.query(
        `INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, source_site, embedding, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'test', CAST($7 AS vector), $8)`,
        [id, user, workspaceId, owner, visibility, text, vector, expiry],
      );
      ids.push(id);
      if (visibility === 'restricted' && next() < 0.6) {
        await t.dataSource.query(
          `INSERT INTO memory_visibility_grants (memory_id, user_id, workspace_id, grantee_agent_id, granted_by_agent_id)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
          [id, user, workspaceId, agents[Math.floor(next() * agents.length)], owner],
        );
      }
    }
    const q = toVectorLiteral(new Array<number>(dims).fill(0.05));
    let ranked = 0;
    // Every agent_scope: each narrows within the two ranges of the reader index the statement reads.
    const agentScopes: AgentScope[] = [
      { kind: 'all' },
      { kind: 'self' },
      { kind: 'others' },
      { kind: 'agents', agentIds: [agents[0], agents[2]] },
    ];
    for (const agentId of agents)
      for (const agentScope of agentScopes) {
        const scope: MemoryScope = { kind: 'workspace', userId: user, workspaceId, agentId, agentScope };
        for (let i = 0; i < 4; i++) {
          const query = Array.from({ length: 2 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]);
          if ((await rankedAsPerQuery(scope, query, q)).rows.length > 0) ranked++;
        }
      }
    expect(ranked).toBeGreaterThan(30);
  });
});
