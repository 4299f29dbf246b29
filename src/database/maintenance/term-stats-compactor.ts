import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource, type EntityManager } from 'typeorm';

import type { AppConfig } from '../../env/app-config';
import { PeriodicJob } from './periodic-job';

/** Change rows folded per transaction: short transactions, so a large backlog (an import) never holds locks long. */
export const TERM_STATS_FOLD_BATCH = 20_000;
/** pg_try_advisory_xact_lock key of the fold ("atrium term stats"): one instance at a time. */
export const TERM_STATS_FOLD_LOCK = 7_406_211_303;

/**
 * Folds the change rows that writes append to memory_term_changes (migrations 1763700400000,
 * 1763700700000) into one row per key of memory_term_stats, so that a search's statistics read a
 * handful of rows per lexeme, not one per memory written since. Writers only ever INSERT change
 * rows; this is the only code that changes a folded row, one instance at a time (a
 * transaction-level advisory lock, which works on the embedded database and behind a
 * transaction-mode pooler).
 *
 * A batch is one statement that deletes the oldest change rows and adds their sums to the
 * folded rows (ON CONFLICT on the folded key), then one that removes the keys it left at zero
 * (by the ids the first returned); in one transaction, so a reader sees the batch either before
 * or after, and its sums are the same both ways.
 */
@Injectable()
export class TermStatsCompactor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly job: PeriodicJob;
  private readonly logger = new Logger('TermStatsCompactor');
  /** TERM_STATS_VACUUM_ROWS: change rows folded by this instance between two vacuums of the change table (0 = never). */
  private readonly vacuumRows: number;
  private foldedSinceVacuum = 0;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ConfigService) app: AppConfig,
  ) {
    const intervalMs = app.get('TERM_STATS_COMPACT_INTERVAL_MS', { infer: true });
    this.vacuumRows = app.get('TERM_STATS_VACUUM_ROWS', { infer: true });
    this.job = new PeriodicJob('term statistics fold', this.logger, intervalMs, () => this.foldPending());
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** Folds until no change row is left or another instance holds the lock. Returns the change rows folded, or null when another instance was folding. */
  async fold(batch = TERM_STATS_FOLD_BATCH): Promise<number | null> {
    let folded = 0;
    let locked = false;
    while (!this.job.stopping) {
      const n = await this.dataSource.transaction((manager) => foldBatch(manager, batch));
      if (n === null) {
        locked = folded === 0;
        break;
      }
      folded += n;
      if (n < batch) break;
    }
    this.foldedSinceVacuum += folded;
    if (this.vacuumRows > 0 && this.foldedSinceVacuum >= this.vacuumRows) await this.vacuumChanges();
    return locked ? null : folded;
  }

  /**
   * VACUUM of the change table, every TERM_STATS_VACUUM_ROWS rows this instance folded. The
   * table is a queue: every row a write appends, a fold deletes within a second or so, and its
   * dead rows stay in the heap and the key until a vacuum. Left to autovacuum (a minute apart at
   * best, or never where it is off) they pile up: 598,000 dead rows, 67 MB, after six 10 s write
   * rounds at 1M, and every fold and probe walked them (docs/bench-notes/write-path.md). A
   * vacuum of a few megabytes of dead rows is milliseconds; SKIP_LOCKED passes when another
   * instance's is running. It cannot run in a transaction; a failure (a role that does not own
   * the table gets a warning, not an error) is logged and the folds go on.
   */
  private async vacuumChanges(): Promise<void> {
    this.foldedSinceVacuum = 0;
    try {
      await this.dataSource.query('VACUUM (SKIP_LOCKED) memory_term_changes');
    } catch (error) {
      this.logger.warn(`VACUUM of memory_term_changes failed: ${(error as Error).message}`);
    }
  }

  /**
   * The scheduled pass: one probe of the change rows' primary key when nothing was written
   * since the last fold, so an idle instance opens no transaction every second. The probe reads
   * the key, not the table: the rows the last folds deleted stay in the heap until vacuum, and a
   * sequential scan for the first live row read all of them (1.2 ms a second on a 14 MB table of
   * 173,000 dead rows after a 0.15-scale write run; the key, whose entries a scan marks dead
   * once, 0.35 ms; docs/bench-notes/write-path.md).
   */
  private async foldPending(): Promise<void> {
    const pending: unknown[] = await this.dataSource.query('SELECT id FROM memory_term_changes ORDER BY id LIMIT 1');
    if (pending.length > 0) await this.fold();
  }
}

/** One batch, in the caller's transaction: the change rows folded, or null when another instance holds the lock. */
export async function foldBatch(manager: EntityManager, batch: number): Promise<number | null> {
  const [{ locked }]: { locked: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [TERM_STATS_FOLD_LOCK]);
  if (!locked) return null;
  const [{ n, emptied }]: { n: number; emptied: string[] | null }[] = await manager.query(
    `WITH changes AS (
       DELETE FROM memory_term_changes c
        WHERE c.id IN (SELECT p.id FROM memory_term_changes p ORDER BY p.id LIMIT $1)
       RETURNING c.user_id, c.workspace_id, c.agent_id, c.grantee_agent_id, c.class, c.lexeme, c.docs, c.length_sum),
     sums AS (
       SELECT user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, sum(docs) AS docs, sum(length_sum) AS length_sum
         FROM changes GROUP BY user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme),
     folded AS (
       INSERT INTO memory_term_stats AS f (user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum, compacted)
       SELECT user_id, workspace_id, agent_id, grantee_agent_id, class, lexeme, docs, length_sum, true FROM sums
       ON CONFLICT (user_id, workspace_id, lexeme, agent_id, grantee_agent_id, class) WHERE compacted
       DO UPDATE SET docs = f.docs + EXCLUDED.docs, length_sum = f.length_sum + EXCLUDED.length_sum
       RETURNING f.id, f.docs)
     SELECT CAST((SELECT count(*) FROM changes) AS integer) AS n,
            (SELECT array_agg(CAST(id AS text)) FROM folded WHERE docs = 0) AS emptied`,
    [batch],
  );
  // Keys whose documents all went (deleted, expired or moved away) leave nothing behind. Only
  // keys this batch touched can have reached zero; the check on docs is repeated here because
  // the statement above cannot change a row it has just written.
  if (emptied !== null && emptied.length > 0)
    await manager.query('DELETE FROM memory_term_stats s WHERE s.id = ANY(CAST($1 AS bigint[])) AND s.docs = 0', [emptied]);
  return n;
}
