import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

import type { MemoryScope } from '../common/scope/memory-scope';
import { MemoryAccess } from '../database/access/memory-access';
import { CoalescingWriter } from './coalescing-writer';

/** How long access increments gather before they are written. */
const ACCESS_WRITE_DELAY_MS = 50;

/**
 * Access bookkeeping (+1 access_count, last_accessed_at in memory_access_counts, not in the
 * memories rows: their pages stay clean) for rows just returned, off the response path and
 * scoped like the read. One UPDATE per read made concurrent reads of the
 * same rows queue on row locks (and deadlock, two reads locking overlapping rows in
 * different orders), each holding a pool connection, until searches waited for connections
 * (docs/benchmarks.md). So increments are merged per scope and written in rounds by one
 * writer (CoalescingWriter): a round writes what gathered in ACCESS_WRITE_DELAY_MS, one
 * upsert per scope and per distinct increment. Counts stay exact. Shutdown waits for the
 * pending writes; a failed write is logged, never left as an unhandled rejection.
 */
@Injectable()
export class AccessTracker implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AccessTracker');
  private readonly pending = new Set<Promise<void>>();
  private readonly writer = new CoalescingWriter((scope, counts) => this.write(scope, counts), ACCESS_WRITE_DELAY_MS);

  constructor(private readonly access: MemoryAccess) {}

  record(scope: MemoryScope, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const task = this.writer
      .add(scope, ids)
      .catch((error: Error) => this.logger.warn(`access bookkeeping failed: ${error.message}`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** For tests and shutdown: wait until every started update has finished. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async write(scope: MemoryScope, counts: Map<string, number>): Promise<void> {
    const byIncrement = new Map<number, string[]>();
    for (const [id, n] of counts) {
      const ids = byIncrement.get(n);
      if (ids) ids.push(id);
      else byIncrement.set(n, [id]);
    }
    for (const [increment, ids] of byIncrement) await this.access.recordAccess(scope, increment, ids);
  }
}
