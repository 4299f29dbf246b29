import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';

import { Access } from '../common/identity/route-access';
import { ApiAdminWithApiKey, ApiInternalError } from '../openapi/api-errors';
import { MetricsService } from './metrics.service';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

@ApiTags('Metrics')
@ApiInternalError()
@Access('admin-with-api-key')
@ApiAdminWithApiKey()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly dataSource: DataSource,
  ) {}

  /** Prometheus text exposition. Pool gauges are read at scrape time. */
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Request counts and latency by route pattern, blocked searches, gate rejections, lessons, embedding and LLM calls, pool use.',
  })
  @ApiOkResponse({
    description: 'Prometheus text exposition format 0.0.4.',
    content: {
      'text/plain': {
        schema: { type: 'string' },
        example: '# TYPE atrium_http_requests_total counter\natrium_http_requests_total{method="GET",route="/health",status="200"} 1\n',
      },
    },
  })
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
