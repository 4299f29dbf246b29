import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

import type { MemoryScope } from '../common/scope/memory-scope';
import { MemoriesRepository } from './memories.repository';

/**
 * Access bookkeeping (last_accessed_at, access_count) off the response path: handed to the
 * repository after the response is built; the repository merges the increments per scope and
 * writes them in rounds (MemoriesRepository.recordAccess). Shutdown waits for the pending ones.
 */
@Injectable()
export class AccessTracker implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AccessTracker');
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly repository: MemoriesRepository) {}

  record(scope: MemoryScope, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.repository.recordAccess(scope, ids))
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
}
