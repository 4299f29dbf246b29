import { MemoryAccess } from '../../src/database/access/memory-access';
import { openStatementPool } from '../../src/database/access/statement-pool';
import { toVectorLiteral } from '../../src/database/vector';
import { AccessTracker } from '../../src/memories/access-tracker';
import { DEFAULT_VECTOR_SEARCH_TUNING, VectorSearch } from '../../src/retrieval/vector-search';
import { startControlledEmbeddings } from '../support/controlled-embeddings';
import type { FakeOpenAiServer } from '../support/fake-openai-server';
import { newId, newUser } from '../support/ids';
import { withLoggedQueries } from '../support/logged-queries';
import { quickIngest } from '../support/quick-ingest';
import { createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

/**
 * search/fast runs the lesson check, the scoped retrieval and the scope count as one
 * statement, rendered once per query shape: the same answers with named prepared statements
 * and with unnamed ones (the PgBouncer setting), on the exact plan and on the HNSW plan
 * (SEARCH_EXACT_SCOPE_LIMIT below the scope size), and fail-closed in every case.
 */
describe.each([
  ['named prepared statements', 'true', '3000'],
  ['unnamed statements', 'false', '3000'],
  ['named prepared statements, HNSW plan', 'true', '2'],
  ['unnamed statements, HNSW plan', 'false', '2'],
])('search/fast in one statement (%s)', (_label, prepared, exactLimit) => {
  let t: TestApp;
  let embeddings: FakeOpenAiServer;

  beforeAll(async () => {
    embeddings = await startControlledEmbeddings();
    t = await createTestApp({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_BASE_URL: embeddings.baseUrl,
      QUERY_EMBEDDING_CACHE_SIZE: '0',
      DATABASE_PREPARED_STATEMENTS: prepared,
      SEARCH_EXACT_SCOPE_LIMIT: exactLimit,
    });
  });
  afterAll(async () => {
    await t.close();
    await embeddings.stop();
  });

  const remember = async (scope: Record<string, unknown>, content: string): Promise<string> => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ ...scope, source_site: 'tests', skip_extraction: true, conversation: content });
    if (res.body.memories_stored !== 1) throw new Error(JSON.stringify(res.body));
    return res.body.stored_memory_ids[0] as string;
  };
  const fast = (scope: Record<string, unknown>, query: string, extra: Record<string, unknown> = {}) =>
    t
      .http()
      .post('/v1/memories/search/fast')
      .send({ ...scope, query, ...extra });
  const accessCount = async (id: string): Promise<number> => {
    await t.app.get(AccessTracker).flush();
    const rows: { n: number }[] = await t.dataSource.query('SELECT access_count AS n FROM memory_access_counts WHERE memory_id = $1', [id]);
    return rows[0]?.n ?? 0;
  };

  it('returns the nearest visible rows, closest first, with their similarity, and counts the access', async () => {
    const scope = { user_id: newUser() };
    const far = await remember(scope, 'vec:0.2#far');
    const mid = await remember(scope, 'vec:0.6#mid');
    const near = await remember(scope, 'vec:0.99#near');
    await remember({ user_id: newUser() }, 'vec:1#another user');

    const res = await fast(scope, 'vec:1');
    expect(res.status).toBe(200);
    expect(res.body.memories.map((m: { id: string }) => m.id)).toEqual([near, mid, far]);
    expect(res.body.memories.map((m: { similarity: number }) => Math.round(m.similarity * 100) / 100)).toEqual([0.99, 0.6, 0.2]);
    expect(res.body.lesson_check).toEqual({ safe: true, warnings: [], highest_severity: 'none', matched_count: 0 });
    expect(await accessCount(near)).toBe(1);

    const limited = await fast(scope, 'vec:1', { limit: 1 });
    expect(limited.body.memories.map((m: { id: string }) => m.id)).toEqual([near]);
  });

  it('warns on non-critical lessons and still retrieves', async () => {
    const scope = { user_id: newUser() };
    await remember(scope, 'vec:0.9#memory');
    await t.http().post('/v1/memories/lessons/report').query(scope).send({ pattern: 'vec:1#high', severity: 'high' });
    const res = await fast(scope, 'vec:0.95');
    expect(res.body.count).toBe(1);
    expect(res.body.lesson_check).toMatchObject({ safe: true, highest_severity: 'high', matched_count: 1 });
  });

  it.each([
    ['user', () => ({ user_id: newUser() })],
    ['workspace', () => ({ user_id: newUser(), workspace_id: newId(), agent_id: newId() })],
  ])('fails closed in %s scope: no rows, no access recorded, also once the scope is known', async (_kind, makeScope) => {
    const scope = makeScope();
    const id = await remember(scope, 'vec:0.95#victim');
    await remember(scope, 'vec:0.6#second');
    await remember(scope, 'vec:0.2#third');
    // A first search (on the HNSW settings it marks the scope as large), then the lesson.
    expect((await fast(scope, 'vec:0.9')).body.count).toBe(3);
    expect(await accessCount(id)).toBe(1);
    await t
      .http()
      .post('/v1/memories/lessons/report')
      .query({ user_id: scope.user_id })
      .send({ pattern: 'vec:1#critical', severity: 'critical' });

    const res = await fast(scope, 'vec:0.9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, memories: [], citations: [], injection_text: '' });
    expect(res.body.lesson_check).toMatchObject({ safe: false, highest_severity: 'critical', matched_count: 1 });
    expect(await accessCount(id)).toBe(1);
  });
});

describe('named search statements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // A direct PostgreSQL connection: not the embedded database (one backend shared by every
  // connection), not a pooler (CI's PgBouncer run sets DATABASE_DIRECT_URL).
  const direct = isPostgresRun() && !process.env.DATABASE_DIRECT_URL;

  it('are used on a direct PostgreSQL connection only', () => {
    expect(t.app.get(MemoryAccess).preparedStatements).toBe(direct);
  });

  // Elsewhere the app never prepares them (and neither PGlite nor PgBouncer takes the session option).
  if (!direct) return;

  it('are prepared once per connection and run their generic plan, which prunes to one partition', async () => {
    const pool = openStatementPool(t.dataSource, { max: 1 });
    try {
      const search = VectorSearch.withTuning(
        new MemoryAccess(t.dataSource, undefined, { statementPool: pool }),
        DEFAULT_VECTOR_SEARCH_TUNING,
      );
      const userId = newUser();
      await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: userId, source_site: 'tests', skip_extraction: true, conversation: 'a memory to find' });
      const vector = new Array<number>(384).fill(0).map((_, i) => Math.cos(i));
      for (let i = 0; i < 3; i++) expect(await search.nearestVisible({ kind: 'user', userId }, vector, 10)).toHaveLength(1);

      const prepared = await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
        "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'atrium_%'",
      );
      expect(prepared.rows).toHaveLength(1);
      expect(Number(prepared.rows[0].generic_plans)).toBe(3);
      expect(Number(prepared.rows[0].custom_plans)).toBe(0);

      const client = await pool.connect();
      try {
        const literal = (v: unknown) => client.escapeLiteral(String(v));
        // $1 q, $2 user, $3 candidate limit, $4 k: the order renderShape recorded
        const args = [toVectorLiteral(vector), userId, 3001, 10].map(literal).join(', ');
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE ${prepared.rows[0].name}(${args})`,
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Subplans Removed: 15/);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it("prepares /search's full-text side once too: one generic plan for any words, pruned to one partition", async () => {
    const pool = openStatementPool(t.dataSource, { max: 1 });
    try {
      const search = VectorSearch.withTuning(
        new MemoryAccess(t.dataSource, undefined, { statementPool: pool }),
        DEFAULT_VECTOR_SEARCH_TUNING,
      );
      const userId = newUser();
      for (const text of ['the kiln fires on Fridays', 'glaze the bowls before the kiln']) {
        await t
          .http()
          .post('/v1/memories/ingest/quick')
          .send({ user_id: userId, source_site: 'tests', skip_extraction: true, conversation: text });
      }
      const vector = new Array<number>(384).fill(0).map((_, i) => Math.sin(i));
      const found = [];
      for (const words of [['kiln'], ['glaze', 'bowls'], ['fridays', 'kiln']])
        found.push((await search.textMatches({ kind: 'user', userId }, words, vector, 10)).length);
      expect(found).toEqual([2, 1, 2]);

      // One statement, the statistics (memory_term_stats) and the ranking (text_rank) together,
      // prepared once and run with one generic plan for any words, reading one partition. The
      // values, in the order in which its text names them: $1 q, $2 words, $3 user, $4 the
      // words' tsquery, $5 k.
      const statements: [string, (string | number)[]][] = [['%text_rank%', [toVectorLiteral(vector), 'kiln', userId, 'kiln', 10]]];
      for (const [pattern, values] of statements) {
        const prepared = await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
          "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'atrium_%' AND statement LIKE $1",
          [pattern],
        );
        expect(prepared.rows).toHaveLength(1);
        expect(Number(prepared.rows[0].generic_plans)).toBe(3);
        expect(Number(prepared.rows[0].custom_plans)).toBe(0);
        const client = await pool.connect();
        try {
          const plan = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (COSTS OFF) EXECUTE ${prepared.rows[0].name}(${values.map((v) => client.escapeLiteral(String(v))).join(', ')})`,
          );
          const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(text).toMatch(/Subplans Removed: 15/);
        } finally {
          client.release();
        }
      }
    } finally {
      await pool.end();
    }
  });

  it("reads a workspace reader's postings from two ranges of the reader index, the shared one and its own, in the generic plan", async () => {
    const pool = openStatementPool(t.dataSource, { max: 1 });
    try {
      const search = VectorSearch.withTuning(
        new MemoryAccess(t.dataSource, undefined, { statementPool: pool }),
        DEFAULT_VECTOR_SEARCH_TUNING,
      );
      const [userId, workspaceId, writer, reader] = [newUser(), newId(), newId(), newId()];
      await quickIngest(t, { user: userId, workspace: workspaceId, agent: writer }, 'the kiln fires on Fridays', 'workspace');
      await quickIngest(t, { user: userId, workspace: workspaceId, agent: writer }, 'the kiln key is under the mat', 'agent_only');
      const scope = { kind: 'workspace', userId, workspaceId, agentId: reader, agentScope: { kind: 'all' } } as const;
      // A test database's postings fit on a few pages, where a sequential scan is cheapest: as on
      // a large table, the plan is to choose between the indexes.
      await pool.query('SET enable_seqscan = off');
      const vector = new Array<number>(384).fill(0).map((_, i) => Math.sin(i));
      const { logged } = await withLoggedQueries(t.dataSource, async () => {
        for (let i = 0; i < 3; i++) expect(await search.textMatches(scope, ['kiln'], vector, 10)).toHaveLength(1);
      });

      const ranked = logged.filter((q) => q.sql.includes('memory_postings'));
      expect(ranked.length).toBeGreaterThan(0);
      const prepared = await pool.query<{ name: string; generic_plans: string }>(
        "SELECT name, generic_plans FROM pg_prepared_statements WHERE name LIKE 'atrium_%' AND statement LIKE '%memory_postings%'",
      );
      expect(prepared.rows).toHaveLength(1);
      expect(Number(prepared.rows[0].generic_plans)).toBe(3);
      const client = await pool.connect();
      try {
        const values = ranked[ranked.length - 1].parameters.map((v) => client.escapeLiteral(String(v))).join(', ');
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) EXECUTE ${prepared.rows[0].name}(${values})`);
        const scans = plan.rows.map((r) => r['QUERY PLAN']).filter((line) => line.includes('on memory_postings'));
        // The shared range (filed for no one) and the reader's own, each an index range; never
        // the lexeme's whole range of the read index, which holds the other agents' private rows.
        expect(scans).toHaveLength(2);
        for (const scan of scans) expect(scan).toContain('Index Only Scan using memory_postings_reader_idx');
        const conditions = plan.rows.map((r) => r['QUERY PLAN']).filter((line) => line.includes('Index Cond') && line.includes('COALESCE'));
        expect(conditions).toHaveLength(2);
        expect(conditions.filter((c) => /END\)\) IS NULL\)/.test(c))).toHaveLength(1);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
