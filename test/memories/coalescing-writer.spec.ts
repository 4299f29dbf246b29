import type { MemoryScope } from '../../src/common/scope/memory-scope';
import { CoalescingWriter } from '../../src/memories/coalescing-writer';

type Batch = { scope: MemoryScope; counts: Map<string, number> };

const userScope = (userId: string): MemoryScope => ({ kind: 'user', userId });

describe('CoalescingWriter', () => {
  it('hands every scope of a round to one write call, with the increments merged per scope', async () => {
    const calls: Batch[][] = [];
    const writer = new CoalescingWriter(async (batches) => {
      calls.push([...batches]);
    }, 5);
    await Promise.all([writer.add(userScope('u1'), ['a', 'b']), writer.add(userScope('u2'), ['c']), writer.add(userScope('u1'), ['a'])]);
    expect(calls).toHaveLength(1);
    expect(calls[0].map((b) => [b.scope, Object.fromEntries(b.counts)])).toEqual([
      [userScope('u1'), { a: 2, b: 1 }],
      [userScope('u2'), { c: 1 }],
    ]);
  });

  it("rejects every caller of a failed round with the write's error, and writes the next round", async () => {
    let fail = true;
    const written: string[] = [];
    const writer = new CoalescingWriter(async (batches) => {
      if (fail) throw new Error('database gone');
      for (const b of batches) written.push(...b.counts.keys());
    }, 5);
    const results = await Promise.allSettled([writer.add(userScope('u1'), ['a']), writer.add(userScope('u2'), ['b'])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('database gone'));
    fail = false;
    await writer.add(userScope('u1'), ['c']);
    expect(written).toEqual(['c']);
  });
});
