import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';

import type { AppConfig } from '../../env/app-config';
import { PeriodicJob } from './periodic-job';

/** The first pass runs this long after boot, so that start-up and readiness come first. */
const FIRST_PASS_DELAY_MS = 20_000;
/** Rows removed per statement: short transactions, so a large backlog never holds locks for long. */
const BATCH = 1_000;
/** pg_try_advisory_xact_lock key of the purge ("atrium expiry purge"): one instance at a time. */
export const EXPIRY_PURGE_LOCK = 7_406_211_302;

/**
 * Removes memories for good once they have been expired for EXPIRED_RETENTION_DAYS (CONTRACT
 * section 12): the row, its vector, its versions and grants (foreign keys with ON DELETE
 * CASCADE) and its access counts. Until then an expired memory is only hidden (reads leave it
 * out; get and list return it with include_expired=true).
 *
 * A pass runs every EXPIRY_PURGE_INTERVAL_S on each instance, but only one instance works at
 * a time: each batch is one transaction that first takes a transaction-level advisory lock
 * (which also works behind a transaction-mode pooler and on the embedded database) and stops
 * the pass when another instance holds it.
 */
@Injectable()
export class ExpiryPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ExpiryPurge');
  private readonly retentionDays: number;
  private readonly job: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ConfigService) app: AppConfig,
  ) {
    this.retentionDays = app.get('EXPIRED_RETENTION_DAYS', { infer: true });
    const intervalMs = app.get('EXPIRY_PURGE_INTERVAL_S', { infer: true }) * 1000;
    this.job = new PeriodicJob('expiry purge', this.logger, intervalMs, async () => {
      const removed = await this.purge();
      if (removed) this.logger.log({ msg: 'expired memories removed', removed, retention_days: this.retentionDays });
    });
  }

  onApplicationBootstrap(): void {
    this.job.start(FIRST_PASS_DELAY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /**
   * One pass: batches until nothing is left or another instance holds the lock. Returns the
   * memories removed, or null when another instance was purging. `retentionDays` overrides the
   * configured retention (tests).
   */
  async purge(retentionDays = this.retentionDays): Promise<number | null> {
    let removed = 0;
    while (!this.job.stopping) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const [{ locked }]: { locked: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [
          EXPIRY_PURGE_LOCK,
        ]);
        if (!locked) return null;
        // SKIP LOCKED: a row a request is changing right now waits for the next pass.
        const [{ n }]: { n: number }[] = await manager.query(
          `WITH doomed AS (
             SELECT user_id, id FROM memories
              WHERE expires_at IS NOT NULL AND expires_at < now() - make_interval(days => $1)
              LIMIT $2 FOR UPDATE SKIP LOCKED),
           counts AS (
             DELETE FROM memory_access_counts c USING doomed d WHERE c.user_id = d.user_id AND c.memory_id = d.id),
           gone AS (
             DELETE FROM memories m USING doomed d WHERE m.user_id = d.user_id AND m.id = d.id RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [retentionDays, BATCH],
        );
        return n;
      });
      if (batch === null) return removed > 0 ? removed : null;
      removed += batch;
      if (batch < BATCH) break;
    }
    return removed;
  }
}
