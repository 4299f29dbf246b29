import { Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';

import { DomainError } from '../common/errors/domain-error';
import type { AppEnv } from '../env/env.schema';

/**
 * DNS-rebinding protection for /mcp (CONTRACT section 11): a browser page on another origin
 * that resolves its own name to this host would otherwise reach a local server without a key
 * (AUTH_MODE=off). A request whose Origin is not in ALLOWED_ORIGINS is 403 before anything
 * else; one without an Origin (desktop and server clients send none) goes on.
 */
@Injectable()
export class OriginCheckMiddleware implements NestMiddleware {
  private readonly allowed: ReadonlySet<string>;

  constructor(config: ConfigService<AppEnv, true>) {
    this.allowed = new Set(config.get('ALLOWED_ORIGINS', { infer: true }));
  }

  use(req: Request, _res: Response, next: NextFunction): void {
    const origin = req.headers.origin;
    if (origin !== undefined && !this.allowed.has(origin)) throw new DomainError('ORIGIN_NOT_ALLOWED');
    next();
  }
}
