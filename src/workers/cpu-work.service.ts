import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import { DomainError } from '../common/errors/domain-error';
import type { AppConfig } from '../env/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { CpuTask } from './cpu-tasks';
import { WorkerBudgetExceededError, WorkerPool } from './worker-pool';

/**
 * Extraction and embedding are linear and never refused for their content alone: their budget is
 * this many times the gate's, a guard against a worker that hangs rather than a judgement.
 */
const NON_GATE_BUDGET_FACTOR = 10;

/**
 * The service's CPU workers (WRITE_GATE_WORKERS threads, started on the first long input): the
 * write gate, fact extraction and in-process embeddings of long texts run there, so that a burst
 * of long writes never holds the event loop (docs/security.md, "Bounded time"). A task over its
 * budget is refused with 422 GATE_BUDGET_EXCEEDED and counted; its worker is replaced.
 */
@Injectable()
export class CpuWork implements OnApplicationShutdown {
  private readonly pool: WorkerPool;
  private readonly budgetMs: number;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(ConfigService) config: AppConfig,
  ) {
    this.budgetMs = config.get('WRITE_GATE_BUDGET_MS', { infer: true });
    this.pool = new WorkerPool({
      workers: config.get('WRITE_GATE_WORKERS', { infer: true }),
      budgetMs: this.budgetMs,
      nice: config.get('WRITE_GATE_WORKER_NICE', { infer: true }),
    });
  }

  async run<R>(task: CpuTask<R>): Promise<R> {
    const gate = task.kind === 'assess' || task.kind === 'assess-many' || task.kind === 'judge';
    const budgetMs = (gate ? this.budgetMs : this.budgetMs * NON_GATE_BUDGET_FACTOR) * (task.inputs ?? 1);
    try {
      return await this.pool.run(task, budgetMs);
    } catch (error) {
      if (!(error instanceof WorkerBudgetExceededError)) throw error;
      this.metrics.gateBudgetExceeded.inc();
      throw new DomainError('GATE_BUDGET_EXCEEDED');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
