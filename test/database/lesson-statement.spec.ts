import { checkLessonStatement } from '../../src/database/access/lesson-statement';

/**
 * MemoryAccess.userQuery's statement check (lesson-statement.ts): lessons only, every lessons
 * row pinned to user_id = $1. (Every statement LessonsRepository sends runs through the check
 * in the lessons e2e suites.)
 */
describe('checkLessonStatement', () => {
  const ACCEPTED: Record<string, string> = {
    'a filtered read': 'SELECT lesson_type, count(*)::int AS n FROM lessons WHERE user_id = $1 AND active GROUP BY lesson_type',
    'keywords in lower case, the key qualified by its alias': 'select l.id from lessons l where l.user_id = $1 and l.active',
    'the key written the other way round': 'SELECT id FROM lessons WHERE $1 = user_id',
    'a quoted table name and column': 'SELECT id FROM "lessons" WHERE "user_id" = $1',
    'the schema named': 'SELECT id FROM public.lessons WHERE user_id = $1',
    'an OR inside parentheses': "SELECT id FROM lessons WHERE user_id = $1 AND (severity = 'high' OR severity = 'critical')",
    'a comment that mentions memories': 'SELECT id FROM lessons /* not FROM memories */ WHERE user_id = $1 -- nor episodes',
    'an update in a CTE': `WITH retired AS (UPDATE lessons SET active = false WHERE user_id = $1 AND id = $2 RETURNING 1)
      SELECT count(*)::int AS n FROM retired`,
    'a delete': 'DELETE FROM lessons WHERE user_id = $1 AND id = $2',
    'an insert with the user first': 'INSERT INTO lessons (user_id, id, pattern) VALUES ($1, $2, $3) RETURNING id',
    'an upsert whose conflict target names user_id': `INSERT INTO lessons (user_id, id) VALUES ($1, $2)
      ON CONFLICT (user_id, lesson_type, md5(pattern)) WHERE active DO UPDATE SET metadata = lessons.metadata || '{}'
      RETURNING id`,
    'a subquery over a set-returning function': `UPDATE lessons SET source_memory_ids =
      (SELECT COALESCE(array_agg(DISTINCT x), '{}') FROM unnest(lessons.source_memory_ids) AS x) WHERE user_id = $1`,
    'a function with FROM in its arguments': 'SELECT extract(epoch FROM created_at) FROM lessons WHERE user_id = $1',
  };

  const REFUSED: Record<string, [string, RegExp]> = {
    'another tenant table (hole 2)': ['SELECT * FROM memories WHERE user_id = $1', /reaches memories: lessons only/],
    'another table in lower case': ['select * from memory_visibility_grants where user_id = $1', /reaches memory_visibility_grants/],
    'another table quoted': ['SELECT * FROM "memories" WHERE user_id = $1', /reaches memories/],
    'another table joined': ['SELECT l.id FROM lessons l JOIN episodes e ON true WHERE l.user_id = $1', /reaches episodes/],
    'another table in a from list': ['SELECT l.id FROM lessons l, memories m WHERE l.user_id = $1', /reaches memories/],
    'another table in a subquery': [
      'SELECT id, (SELECT count(*) FROM memory_access_counts) FROM lessons WHERE user_id = $1',
      /reaches memory_access_counts/,
    ],
    'another schema': ['SELECT id FROM other.lessons WHERE user_id = $1', /other\.lessons is not lessons/],
    'a delete using another table': ['DELETE FROM lessons USING memories m WHERE lessons.user_id = $1', /reaches memories/],
    'no user key': ['SELECT id FROM lessons', /does not bind user_id = \$1/],
    'the key on $2': ['SELECT id FROM lessons WHERE user_id = $2', /does not bind user_id = \$1/],
    'the key under a top-level OR': ['SELECT id FROM lessons WHERE user_id = $1 OR true', /does not bind user_id = \$1/],
    'the key negated': ['SELECT id FROM lessons WHERE NOT (user_id = $1)', /does not bind user_id = \$1/],
    'the key only in a comment': ['SELECT id FROM lessons /* WHERE user_id = $1 */', /does not bind user_id = \$1/],
    'the key on another alias': ['SELECT l.id FROM lessons l WHERE x.user_id = $1', /does not bind user_id = \$1/],
    'an unpinned second branch of a UNION': [
      'SELECT id FROM lessons WHERE user_id = $1 UNION SELECT id FROM lessons',
      /does not bind user_id = \$1/,
    ],
    'a self-join': ['SELECT a.id FROM lessons a, lessons b WHERE a.user_id = $1', /one lessons reference per query level/],
    'an insert for another user': ["INSERT INTO lessons (user_id, id) VALUES ('bob', $2)", /does not bind user_id = \$1/],
    'an insert of two rows': ["INSERT INTO lessons (user_id, id) VALUES ($1, $2), ('bob', $3)", /does not bind/],
    'an upsert on id alone': [
      'INSERT INTO lessons (user_id, id) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET active = true',
      /does not bind/,
    ],
    'no lessons at all': ['SELECT current_setting($1)', /does not bind user_id = \$1 on lessons/],
    'a second statement': ['SELECT id FROM lessons WHERE user_id = $1; DELETE FROM memories', /one statement only/],
    'dynamic SQL in a literal': [
      "SELECT query_to_xml('select * from memories', true, false, '') FROM lessons WHERE user_id = $1",
      /literal may not carry SQL/,
    ],
    'dynamic SQL in a dollar-quoted literal': [
      'SELECT query_to_xml($q$select * from memories$q$, true, false, $$$$) FROM lessons WHERE user_id = $1',
      /literal may not carry SQL/,
    ],
    'a relation cast': ["SELECT 'x'::regclass FROM lessons WHERE user_id = $1", /regclass is not accepted/],
    'an unknown function in FROM': ['SELECT * FROM lessons, dblink($2) WHERE lessons.user_id = $1', /function dblink/],
    'a parenthesised join': ['SELECT 1 FROM (memories m JOIN lessons l ON true) WHERE l.user_id = $1', /parenthesised joins/],
    TABLE: ['TABLE lessons', /does not bind/],
  };

  it.each(Object.keys(ACCEPTED))('accepts %s', (name) => {
    expect(() => checkLessonStatement(ACCEPTED[name])).not.toThrow();
  });

  it.each(Object.keys(REFUSED))('refuses %s', (name) => {
    const [sql, reason] = REFUSED[name];
    expect(() => checkLessonStatement(sql)).toThrow(reason);
  });
});
