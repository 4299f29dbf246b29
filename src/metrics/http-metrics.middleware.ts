import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

import { MetricsService } from './metrics.service';

/**
 * Counts and times every request by route pattern (`/v1/memories/:id`, never the raw path,
 * which would explode label cardinality); requests that matched no route count as `unmatched`.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const pattern = (req.route as { path?: string } | undefined)?.path;
      const labels = { method: req.method, route: pattern ? `${req.baseUrl}${pattern}` : 'unmatched', status: String(res.statusCode) };
      this.metrics.httpRequests.inc(labels);
      this.metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  }
}
