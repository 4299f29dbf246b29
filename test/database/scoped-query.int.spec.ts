import { MemoryAccess } from '../../src/database/access/memory-access';
import { applyMemoryScope } from '../../src/database/access/visibility';
import { MemoryEntity } from '../../src/database/entities/memory.entity';
import { newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * ScopedSelect / ScopedUpdate (src/database/access/scoped-query.ts) on a real database: a
 * caller condition is AND-ed in parentheses, so it narrows and never widens; the door's
 * parameter names are refused; nothing can rebind the scope.
 */
describe('scoped queries', () => {
  let t: TestApp;
  const alice = newUser('scoped-a');
  const bob = newUser('scoped-b');
  let bobsMemory = '';

  beforeAll(async () => {
    t = await createTestApp();
    for (const [user_id, conversation] of [
      [alice, 'the spare key is under the mat'],
      [bob, 'my bank PIN is 4711'],
    ]) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id, source_site: 'tests', skip_extraction: true, conversation });
      expect(res.status).toBe(200);
      if (user_id === bob) bobsMemory = res.body.stored_memory_ids[0];
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const WIDENING = '1 = 0 OR TRUE';
  const usersOf = (rows: { user_id: string }[]) => [...new Set(rows.map((r) => r.user_id))].sort();

  it('shows the leak on a raw TypeORM builder: andWhere after the predicate is not parenthesised', async () => {
    const raw = applyMemoryScope(
      t.dataSource.getRepository(MemoryEntity).createQueryBuilder('m').select('m.user_id', 'user_id'),
      'm',
      { kind: 'user', userId: alice },
      'read',
    ).andWhere(WIDENING);
    expect(raw.getQuery()).toMatch(/\) AND 1 = 0 OR TRUE$/);
    const rows = await raw.andWhere('m.user_id IN (:...users)', { users: [alice, bob] }).getRawMany<{ user_id: string }>();
    // `(predicate) AND 1 = 0 OR TRUE AND m.user_id IN (...)`: the OR opens every row of both users.
    expect(usersOf(rows)).toEqual([alice, bob].sort());
  });

  it("closes it on a ScopedSelect: the same condition only narrows the caller's rows", async () => {
    const rows = await t.app
      .get(MemoryAccess)
      .memories({ kind: 'user', userId: alice }, 'read')
      .select('m.user_id', 'user_id')
      .andWhere(WIDENING)
      .andWhere('m.user_id IN (:...users)', { users: [alice, bob] })
      .getRawMany<{ user_id: string }>();
    expect(usersOf(rows)).toEqual([alice]);
  });

  it('a ScopedUpdate with a widening condition changes no row of another user', async () => {
    const affected = await t.app
      .get(MemoryAccess)
      .updateMemories({ kind: 'user', userId: alice }, 'read', { importance: 0.01 })
      .andWhere(`memories.id = :id OR TRUE`, { id: bobsMemory })
      .execute();
    expect(affected).toBe(1); // alice's one row
    const [row] = await t.dataSource.query('SELECT importance FROM memories WHERE id = $1', [bobsMemory]);
    expect(Number(row.importance)).not.toBeCloseTo(0.01);
  });

  it("refuses the door's parameter names (vis_*), on reads and on updates", () => {
    const access = t.app.get(MemoryAccess);
    const scope = { kind: 'user', userId: alice } as const;
    expect(() => access.memories(scope, 'read').andWhere('m.user_id = :vis_userId', { vis_userId: bob })).toThrow(/belong to MemoryAccess/);
    expect(() => access.updateMemories(scope, 'read', { importance: 1 }, { vis_userId: bob })).toThrow(/belong to MemoryAccess/);
    expect(() => access.lessons(alice).andWhere('TRUE', { vis_userId: bob })).toThrow(/belong to MemoryAccess/);
  });

  it('offers no way to rebind or replace the predicate, nor a manager or connection, even untyped', () => {
    const query = t.app.get(MemoryAccess).memories({ kind: 'user', userId: alice }, 'read') as unknown as Record<string, unknown>;
    for (const name of ['where', 'orWhere', 'setParameter', 'setParameters', 'connection', 'manager', 'getQueryAndParameters', 'qb']) {
      expect([name, query[name]]).toEqual([name, undefined]);
    }
  });

  it('a condition that names the scope parameter reads the scope value, bound last by the door', async () => {
    const rows = await t.app
      .get(MemoryAccess)
      .memories({ kind: 'user', userId: alice }, 'read')
      .select('m.user_id', 'user_id')
      .andWhere('m.user_id = :vis_userId OR TRUE')
      .getRawMany<{ user_id: string }>();
    expect(usersOf(rows)).toEqual([alice]);
  });

  it('a lessons ScopedSelect keeps its user under a widening condition', async () => {
    await t.http().post('/v1/memories/lessons/report').send({ user_id: bob, pattern: 'wire money to a new account' });
    const rows = await t.app.get(MemoryAccess).lessons(alice).select('l.user_id', 'user_id').andWhere('TRUE OR TRUE').getRawMany();
    expect(rows).toEqual([]);
  });

  it('can only be built by MemoryAccess', () => {
    const query = t.app.get(MemoryAccess).memories({ kind: 'user', userId: alice }, 'read');
    const Ctor = query.constructor as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol('MemoryAccess'), null, {}, 'm', {})).toThrow(/built by MemoryAccess only/);
  });
});
