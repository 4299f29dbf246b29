import { gateHandlers, warmUpGate, warmUpText } from '../../src/lessons/classifier/gate-tasks';

/**
 * The warm-up a fresh CPU worker runs before it takes a task (src/app/cpu.worker.ts): it must
 * walk the gate's long-input path on ordinary text (allowed, as a real long write would be) and
 * its blocking path, and be the inputs it says it is. Its effect on time is a figure in
 * docs/security.md ("Bounded time"), not asserted here.
 */
describe('the gate worker warm-up', () => {
  it('makes long benign text of the asked size from more than one sentence', () => {
    const text = warmUpText(4_000);
    expect(text.length).toBeGreaterThanOrEqual(4_000);
    expect(text.length).toBeLessThan(4_200);
    expect(new Set(text.split('. ')).size).toBeGreaterThan(3);
  });

  it('blocks the injection sentence and lets the long inputs through, each assessed whole', () => {
    const [injection, ...long] = warmUpGate();
    expect(injection.blocked).toBe(true);
    expect(long).toHaveLength(3);
    for (const verdict of long) {
      expect(verdict.blocked).toBe(false);
      expect(verdict.whole.text.length).toBeGreaterThanOrEqual(4_000);
      expect(verdict).toEqual(gateHandlers.assess(warmUpText(4_000)));
    }
  });
});
