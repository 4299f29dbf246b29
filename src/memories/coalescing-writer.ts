import type { MemoryScope } from '../common/scope/memory-scope';

interface PendingBatch {
  scope: MemoryScope;
  counts: Map<string, number>;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Merges per-row increments per scope and writes them in rounds: a round starts `delayMs`
 * after the first increment that finds no round scheduled and writes what has accumulated by
 * then, one scope at a time; increments that arrive during a round wait for the next one.
 * Each caller's promise resolves once its increments are stored, or rejects with the write's
 * error (the caller owns that promise).
 */
export class CoalescingWriter {
  private pending = new Map<string, PendingBatch>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly write: (scope: MemoryScope, counts: Map<string, number>) => Promise<void>,
    private readonly delayMs: number,
  ) {}

  add(scope: MemoryScope, ids: readonly string[]): Promise<void> {
    const key = JSON.stringify(scope);
    let batch = this.pending.get(key);
    if (!batch) {
      batch = { scope, counts: new Map(), waiters: [] };
      this.pending.set(key, batch);
    }
    for (const id of ids) batch.counts.set(id, (batch.counts.get(id) ?? 0) + 1);
    const target = batch;
    const done = new Promise<void>((resolve, reject) => target.waiters.push({ resolve, reject }));
    this.schedule();
    return done;
  }

  private schedule(): void {
    if (this.running || this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // round() settles every waiter itself and never rejects; the catch makes that explicit.
      this.round().catch(() => undefined);
    }, this.delayMs);
  }

  /** Never rejects: each batch's outcome goes to its own waiters. */
  private async round(): Promise<void> {
    this.running = true;
    const batches = [...this.pending.values()];
    this.pending = new Map();
    try {
      for (const batch of batches) {
        try {
          await this.write(batch.scope, batch.counts);
          for (const w of batch.waiters) w.resolve();
        } catch (error) {
          for (const w of batch.waiters) w.reject(error);
        }
      }
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
