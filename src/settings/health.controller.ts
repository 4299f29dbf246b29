import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';

import { Access } from '../common/identity/route-access';
import { RETRY_AFTER_SECONDS } from '../database/database-errors';
import { ApiInternalError } from '../openapi/api-errors';
import { HealthOkDoc, HealthUnavailableDoc } from './settings.responses';

const PROBE_TIMEOUT_MS = 2000;

@ApiTags('Health')
@ApiInternalError()
@Access('public')
@Controller()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** Liveness and readiness in one: 200 when the database answers within 2 s, else 503. */
  @Get('health')
  @ApiOperation({ summary: 'Liveness and readiness', description: '200 when the database answers within 2 s, else 503.' })
  @ApiOkResponse({ type: HealthOkDoc, description: 'The database answers.' })
  @ApiServiceUnavailableResponse({ type: HealthUnavailableDoc, description: 'The database did not answer.' })
  async health(@Res({ passthrough: true }) res: Response): Promise<{ status: string; error?: string }> {
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS).unref()),
      ]);
      return { status: 'ok' };
    } catch {
      res.status(503);
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return { status: 'unavailable', error: 'Database unavailable' };
    }
  }
}
