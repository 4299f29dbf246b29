import type { MemoryEntity } from '../../src/database/entities/memory.entity';
import { contradicts, emptyTally, isDuplicate, relevantCandidates, type IngestDecision } from '../../src/ingest/ingest-steps';
import type { ScoredRow } from '../../src/retrieval/vector-search';

const row = (id: string, distance: number, content = `content of ${id}`): ScoredRow => ({
  memory: { id, content } as MemoryEntity,
  distance,
});

describe('ingest steps', () => {
  describe('isDuplicate', () => {
    it('is a duplicate when the nearest visible memory reaches the threshold', () => {
      expect(isDuplicate(row('a', 0.04), [], [1, 0], 0.95)).toBe(true);
      expect(isDuplicate(row('a', 0.06), [], [1, 0], 0.95)).toBe(false);
    });

    it('is a duplicate of a fact accepted earlier in the same call', () => {
      expect(
        isDuplicate(
          undefined,
          [
            [0, 1],
            [1, 0.01],
          ],
          [1, 0],
          0.95,
        ),
      ).toBe(true);
      expect(isDuplicate(undefined, [[0, 1]], [1, 0], 0.95)).toBe(false);
    });

    it('is not a duplicate in an empty scope', () => {
      expect(isDuplicate(undefined, [], [1, 0], 0.95)).toBe(false);
    });
  });

  it('relevantCandidates keeps neighbours at or above the threshold, as similarities', () => {
    const got = relevantCandidates([row('a', 0.1), row('b', 0.3), row('c', 0.25)], 0.75);
    expect(got.map((c) => c.id)).toEqual(['a', 'c']);
    expect(got[0].similarity).toBeCloseTo(0.9);
  });

  describe('contradicts', () => {
    const cases: [IngestDecision, boolean][] = [
      [{ kind: 'supersede', targetId: 't', confidence: 0.8 }, true],
      [{ kind: 'delete', targetId: 't', confidence: 0.95 }, true],
      [{ kind: 'supersede', targetId: 't', confidence: 0.79 }, false],
      [{ kind: 'update', targetId: 't', confidence: 0.99 }, false],
      [{ kind: 'add' }, false],
      [{ kind: 'skip', reason: 'noop' }, false],
    ];
    it.each(cases)('%j at minimum confidence 0.8 → %s', (decision, expected) => {
      expect(contradicts(decision, 0.8)).toBe(expected);
    });
  });

  it('emptyTally starts every count at zero with fresh id lists', () => {
    const a = emptyTally();
    a.stored_memory_ids.push('x');
    expect(emptyTally()).toEqual({
      memories_stored: 0,
      memories_updated: 0,
      memories_deleted: 0,
      memories_skipped: 0,
      stored_memory_ids: [],
      updated_memory_ids: [],
    });
  });
});
