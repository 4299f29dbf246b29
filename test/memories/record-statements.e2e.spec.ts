import { MemoryAccess } from '../../src/database/access/memory-access';
import { openStatementPool } from '../../src/database/access/statement-pool';
import { MemoriesRepository } from '../../src/memories/memories.repository';
import { newId, newUser } from '../support/ids';
import { newMemoryRow } from '../support/memory-rows';
import { createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

/**
 * get, list and expand run shaped statements (MemoryAccess.records): the SQL text is rendered
 * once per scope shape and reused by every request of that shape, whoever asks; the values
 * are bound. On a direct PostgreSQL connection they are named prepared statements with a
 * generic plan that still prunes to the caller's partition.
 */
describe('record reads as shaped statements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RUNTIME_CONFIG_POLL_MS: '60000' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  const store = async (body: Record<string, unknown>): Promise<string> => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ source_site: 'tests', skip_extraction: true, ...body });
    expect(res.status).toBe(200);
    return res.body.stored_memory_ids[0] as string;
  };

  /** The texts of the record statements the app sent while `fn` ran (MemoryAccess logs every shaped statement). */
  const recordTexts = async (fn: () => Promise<unknown>): Promise<string[]> => {
    const texts: string[] = [];
    const spy = jest.spyOn(t.dataSource.logger, 'logQuery').mockImplementation((sql: string) => {
      if (sql.includes('memory_access_counts') && !sql.startsWith('INSERT')) texts.push(sql);
    });
    try {
      await fn();
    } finally {
      spy.mockRestore();
    }
    return texts;
  };

  it('one text per scope kind and route, the same for every caller, with no caller value in it', async () => {
    const users = [newUser('shape'), newUser('shape')];
    const ws = [newId(), newId()];
    const agents = [newId(), newId()];
    const userScopes = users.map((user_id) => ({ user_id }));
    const wsScopes = [0, 1].map((i) => ({ user_id: users[i], workspace_id: ws[i], agent_id: agents[i] }));
    const ids = [...(await Promise.all(userScopes.map((s) => store({ ...s, conversation: 'shape test: user memory' }))))];
    const wsIds = await Promise.all(wsScopes.map((s) => store({ ...s, conversation: 'shape test: workspace memory' })));

    const perKind = async (scopes: Record<string, unknown>[], memoryIds: string[]) => {
      const gets = await recordTexts(async () => {
        for (let i = 0; i < 2; i++) expect((await t.http().get(`/v1/memories/${memoryIds[i]}`).query(scopes[i])).status).toBe(200);
      });
      const lists = await recordTexts(async () => {
        for (let i = 0; i < 2; i++)
          expect(
            (
              await t
                .http()
                .get('/v1/memories/list')
                .query({ ...scopes[i], limit: 5 + i, offset: i })
            ).status,
          ).toBe(200);
      });
      const expands = await recordTexts(async () => {
        for (let i = 0; i < 2; i++)
          expect(
            (
              await t
                .http()
                .post('/v1/memories/expand')
                .send({ ...scopes[i], memory_ids: [memoryIds[i], newId()] })
            ).status,
          ).toBe(200);
      });
      return { gets, lists, expands };
    };
    const user = await perKind(userScopes, ids);
    const workspace = await perKind(wsScopes, wsIds);

    for (const texts of [user.gets, user.lists, user.expands, workspace.gets, workspace.lists, workspace.expands]) {
      expect(texts).toHaveLength(2);
      expect(texts[1]).toBe(texts[0]);
      for (const value of [...users, ...ws, ...agents, ...ids, ...wsIds]) expect(texts[0]).not.toContain(value);
    }
    const distinct = new Set([user.gets[0], user.lists[0], user.expands[0], workspace.gets[0], workspace.lists[0], workspace.expands[0]]);
    expect(distinct.size).toBe(6);
    expect(user.gets[0]).toMatch(/"m"\."workspace_id" IS NULL/);
    expect(workspace.gets[0]).toMatch(/"m"\."workspace_id" = \$\d+/);
  });

  // A direct PostgreSQL connection only (not the embedded database, not a pooler).
  if (!(isPostgresRun() && !process.env.DATABASE_DIRECT_URL)) return;

  it('are prepared once per connection and run their generic plan, which prunes to one partition', async () => {
    const pool = openStatementPool(t.dataSource, { max: 1 });
    try {
      const repository = new MemoriesRepository(new MemoryAccess(t.dataSource, undefined, { statementPool: pool }));
      const users = [newUser('prepared'), newUser('prepared'), newUser('prepared')];
      const ids = await Promise.all(users.map((user_id) => store({ user_id, conversation: 'a memory to get by id' })));
      for (let i = 0; i < 3; i++)
        expect((await repository.findVisibleById({ kind: 'user', userId: users[i] }, ids[i]))?.memory.id).toBe(ids[i]);

      const prepared = await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
        "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'atrium_%'",
      );
      expect(prepared.rows).toHaveLength(1);
      expect(Number(prepared.rows[0].generic_plans)).toBe(3);
      expect(Number(prepared.rows[0].custom_plans)).toBe(0);

      const client = await pool.connect();
      try {
        // $1 user, $2 id: the order renderShape recorded
        const args = [users[0], ids[0]].map((v) => client.escapeLiteral(v)).join(', ');
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE ${prepared.rows[0].name}(${args})`,
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Subplans Removed: 15/);
        // (which indexes read the partition and the counts depends on their size, a few rows
        // here: docs/benchmarks.md has the plans on the benchmark corpus)
        expect(text).toMatch(/on memory_access_counts ac/);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it("write a memory's INSERT as a named statement on the transaction's connection, parsed once for every write of its shape", async () => {
    const pool = openStatementPool(t.dataSource, { max: 1 });
    const row = (userId: string, content: string) =>
      newMemoryRow(
        userId,
        content,
        Array.from({ length: t.env.EMBEDDING_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0)),
      );
    try {
      const users = [newUser('named-write'), newUser('named-write')];
      const rows = [row(users[0], 'the first write of this shape'), row(users[1], 'the second write of this shape')];
      const statements = await t.dataSource.transaction(async (manager) => {
        const tx = new MemoryAccess(t.dataSource, manager, { statementPool: pool });
        for (const one of rows) await tx.insertMemories([one]);
        return manager.query<{ statement: string; plans: string }[]>(
          "SELECT statement, generic_plans + custom_plans AS plans FROM pg_prepared_statements WHERE name LIKE 'atrium_%'",
        );
      });
      // (The connection may also hold the ingest route's shape, with its episode, audit and outbox parts, from the writes above.)
      const insert = statements.filter((s) => s.statement.includes('INSERT INTO "memories"') && !s.statement.includes('episode AS'));
      expect(insert).toHaveLength(1);
      expect(Number(insert[0].plans)).toBeGreaterThanOrEqual(2);
      // Both rows are there, each under its own user.
      const repository = new MemoriesRepository(new MemoryAccess(t.dataSource));
      for (const one of rows)
        expect((await repository.findVisibleById({ kind: 'user', userId: one.userId }, one.id))?.memory.content).toBe(one.content);
    } finally {
      await pool.end();
    }
  });
});
