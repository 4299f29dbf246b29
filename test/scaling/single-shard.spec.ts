import { singleShardFindings } from './single-shard';

/** The check itself must catch what it exists to catch: each of these is a multi-shard statement. */
describe('the single-shard check', () => {
  it.each([
    ['a read with no user_id at all', 'SELECT * FROM memories m WHERE m.id = $1'],
    ['a filter on another column named like it', 'SELECT * FROM memories m WHERE m.owner_user_id = $1'],
    ['a user_id list', 'SELECT * FROM memories m WHERE m.user_id = ANY($1) AND m.id = $2'],
    ['a user_id IN list', 'SELECT * FROM memories m WHERE m.user_id IN ($1, $2)'],
    ['a user_id range', "SELECT * FROM lessons l WHERE l.user_id > 'a'"],
    ['an update by id only', 'UPDATE memories SET access_count = access_count + 1 WHERE id = ANY($1)'],
    ['a delete by id only', 'DELETE FROM memory_visibility_grants WHERE memory_id = $1'],
    ['an insert without user_id', 'INSERT INTO episodes (id, content) VALUES ($1, $2)'],
    [
      'a join on a column other than user_id',
      'SELECT 1 FROM memories m JOIN memory_visibility_grants g ON g.memory_id = m.id WHERE m.user_id = $1',
    ],
    [
      'a subquery of another table left unpinned',
      'SELECT * FROM memories m WHERE m.user_id = $1 AND EXISTS (SELECT 1 FROM memory_visibility_grants g WHERE g.memory_id = m.id)',
    ],
    ['a pin on the wrong alias', 'SELECT * FROM memories a JOIN memories b ON b.id = a.id WHERE a.user_id = $1 AND b.id = $2'],
    [
      'a quoted TypeORM statement without the pin',
      'SELECT "Lesson"."id" AS "Lesson_id" FROM "lessons" "Lesson" WHERE "Lesson"."active" = true',
    ],
  ])('finds %s', (_name, sql) => {
    expect(singleShardFindings(sql)).not.toEqual([]);
  });

  it.each([
    ['a pinned read', 'SELECT * FROM memories m WHERE m.user_id = $1 AND m.id = $2'],
    ['a pinned read written the other way round', 'SELECT * FROM memories m WHERE $1 = m.user_id'],
    ['a pin with a cast', 'SELECT * FROM lessons WHERE user_id = $1::text AND active'],
    ['a pin through CAST', 'SELECT * FROM agents a WHERE a.user_id = CAST($1 AS text)'],
    ['an unaliased update', 'UPDATE memories SET deleted_at = now() WHERE user_id = $1 AND id = $2'],
    ['an insert with user_id', 'INSERT INTO episodes (id, user_id, content) VALUES ($1, $2, $3)'],
    [
      'an upsert',
      'INSERT INTO agents (user_id, agent_id, trust_level) VALUES ($1, $2, $3) ON CONFLICT (user_id, agent_id) DO UPDATE SET trust_level = EXCLUDED.trust_level',
    ],
    [
      'a co-located join',
      'SELECT 1 FROM memories m JOIN memory_visibility_grants g ON g.user_id = m.user_id AND g.memory_id = m.id WHERE m.user_id = $1',
    ],
    [
      'a pinned correlated subquery',
      'SELECT * FROM memories m WHERE m.user_id = $1 AND EXISTS (SELECT 1 FROM memory_visibility_grants g WHERE g.user_id = $1 AND g.memory_id = m.id)',
    ],
    [
      'a quoted TypeORM statement',
      'SELECT "Memory"."id" AS "Memory_id" FROM "memories" "Memory" WHERE ( "Memory"."user_id" = $1 AND "Memory"."workspace_id" IS NULL )',
    ],
    ['a statement on no distributed table', 'SELECT version, settings FROM runtime_config WHERE id = 1'],
    ['transaction control', 'COMMIT'],
  ])('passes %s', (_name, sql) => {
    expect(singleShardFindings(sql)).toEqual([]);
  });

  it('names the table and alias it could not pin', () => {
    expect(singleShardFindings('SELECT 1 FROM memories m JOIN lessons l ON l.id = m.id WHERE m.user_id = $1')).toEqual([
      { table: 'lessons', alias: 'l', problem: 'no l.user_id = <one value>' },
    ]);
  });
});
