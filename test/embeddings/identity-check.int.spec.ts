import { countForeignVectors, EMBEDDED_TABLES, foreignVectorsStatement } from '../../src/database/maintenance/foreign-vectors';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * The embedder check every start runs (prepareDatabase -> countForeignVectors) must not read the
 * whole table: at a million memories the old `embedded_by <> $1` form scanned it all, took
 * seconds, and ran past the statement timeout under load, so the instance could not start. The
 * statement is now two ranges of the `embedded_by` index. With sequential scans priced out, the
 * planner must answer it with index conditions on both sides of the identity (with `<>` it could
 * only read the whole index and filter it).
 */
describe('the start-up embedder check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('counts the rows of another embedder, up to the cap', async () => {
    const userId = `identity-check-${Date.now()}`;
    await t.dataSource.query(
      `INSERT INTO memories (id, user_id, content, source_site, embedding, embedded_by, created_at)
       SELECT gen_random_uuid(), $1, 'row ' || i, 'tests', CAST(array_fill(0.1::float8, ARRAY[384]) AS vector),
              CASE WHEN i <= 3 THEN 'other/model-a/384' WHEN i <= 5 THEN 'zzz/model-b/384' ELSE 'hash/feature-hash-v1/384' END, now()
         FROM generate_series(1, 20) AS i`,
      [userId],
    );
    const identity = 'hash/feature-hash-v1/384';
    expect(await countForeignVectors(t.dataSource, identity)).toEqual({ count: 5, example: 'other/model-a/384' });
    expect((await countForeignVectors(t.dataSource, identity, 1)).count).toBe(1);
    expect((await countForeignVectors(t.dataSource, identity, 4)).count).toBe(4);
    expect((await countForeignVectors(t.dataSource, 'other/model-a/384')).count).toBe(17);
  });

  it.each(EMBEDDED_TABLES.map((table) => [table]))('reads %s through its embedded_by index, never a sequential scan', async (table) => {
    const plan = await t.dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      const rows: { 'QUERY PLAN': string }[] = await manager.query(`EXPLAIN (COSTS OFF) ${foreignVectorsStatement(table)}`, [
        'hash/feature-hash-v1/384',
        1,
      ]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    // A partition's index is named after its partition (memories_p3_embedded_by_idx).
    expect(plan).toMatch(/(?:using|on) \w*embedded_by_idx/);
    expect(plan).not.toContain('Seq Scan');
    // Bounded by the identity (an index condition), not the whole index read and filtered.
    expect(plan).toMatch(/Index Cond: \(embedded_by < /);
    expect(plan).toMatch(/Index Cond: \(embedded_by > /);
    expect(plan).not.toMatch(/Filter: \(embedded_by <> /);
  });
});
