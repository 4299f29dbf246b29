import { randomUUID } from 'node:crypto';

import type { NextFunction, Request, Response } from 'express';

import type { JsonLogger } from './json-logger';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane, else a UUID),
 * echoes it in the response, and logs one JSON line when the response finishes.
 * Query strings are left out of the log: they carry user ids.
 */
export function requestLogger(logger: JsonLogger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const incoming = req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as Request & { requestId?: string }).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.event(res.statusCode >= 500 ? 'error' : 'info', {
        msg: 'request',
        request_id: requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        latency_ms: Math.round(latencyMs * 100) / 100,
      });
    });
    next();
  };
}
