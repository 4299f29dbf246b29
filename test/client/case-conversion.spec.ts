import { camelToSnake, keysToCamel, keysToSnake, snakeToCamel } from '../../src/client/case-conversion';

describe('client key conversion', () => {
  it.each([
    ['user_id', 'userId'],
    ['last_accessed_at', 'lastAccessedAt'],
    ['id', 'id'],
    ['by_type', 'byType'],
  ])('maps %s <-> %s', (snake, camel) => {
    expect(snakeToCamel(snake)).toBe(camel);
    expect(camelToSnake(camel)).toBe(snake);
  });

  it('re-cases nested service keys, inside arrays too, and leaves values alone', () => {
    const wire = {
      memories: [{ source_site: 'chat', visibility: 'agent_only', created_at: '2026-01-01T00:00:00.000Z' }],
      lesson_check: { highest_severity: 'none', matched_count: 0 },
      scope: { kind: 'workspace', agent_scope: ['a_b'] },
    };
    expect(keysToCamel(wire)).toEqual({
      memories: [{ sourceSite: 'chat', visibility: 'agent_only', createdAt: '2026-01-01T00:00:00.000Z' }],
      lessonCheck: { highestSeverity: 'none', matchedCount: 0 },
      scope: { kind: 'workspace', agentScope: ['a_b'] },
    });
  });

  it('never touches the keys of metadata, in either direction, at any depth', () => {
    const metadata = { snake_key: 1, camelKey: { inner_snake: [{ deep_key: true }], innerCamel: null }, 'Odd Key-1': 'x' };
    const toWire = keysToSnake({ sourceSite: 's', metadata }) as Record<string, unknown>;
    expect(toWire).toEqual({ source_site: 's', metadata });
    const back = keysToCamel({ memories: [{ trust_score: 1, metadata }] }) as { memories: { metadata: unknown }[] };
    expect(back.memories[0].metadata).toEqual(metadata);
    expect(back.memories[0].metadata).toBe(metadata);
  });

  it('keeps lesson-type keys of by_type as the values lessonType carries', () => {
    expect(keysToCamel({ total_active: 2, by_type: { user_reported: 2, trust_violation: 0 } })).toEqual({
      totalActive: 2,
      byType: { user_reported: 2, trust_violation: 0 },
    });
  });

  it('drops undefined fields and passes Dates through for JSON to serialise', () => {
    const at = new Date('2026-02-03T04:05:06.000Z');
    const wire = keysToSnake({ userId: 'u', asOf: at, limit: undefined }) as Record<string, unknown>;
    expect(wire).toEqual({ user_id: 'u', as_of: at });
    expect(JSON.stringify(wire)).toBe('{"user_id":"u","as_of":"2026-02-03T04:05:06.000Z"}');
  });

  it('keeps a "__proto__" key as a plain property instead of swapping the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "userId": "u"}') as unknown;
    const result = keysToSnake(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(result)).toEqual(['__proto__', 'user_id']);
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
