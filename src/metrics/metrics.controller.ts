import { Controller, Get, Header } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MetricsService } from './metrics.service';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly dataSource: DataSource,
  ) {}

  /** Prometheus text exposition. Pool gauges are read at scrape time. */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    if (pool) {
      this.metrics.dbPool.set({ state: 'total' }, pool.totalCount);
      this.metrics.dbPool.set({ state: 'idle' }, pool.idleCount);
      this.metrics.dbPool.set({ state: 'waiting' }, pool.waitingCount);
    }
    return this.metrics.registry.metrics();
  }
}
