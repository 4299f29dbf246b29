import type { NextFunction, Request, Response } from 'express';

import { DomainError } from '../errors/domain-error';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The route that reads its own body, as a stream (POST /v1/memories/import, bounded by
 * IMPORT_MAX_BYTES): the JSON parser leaves it alone, and it also takes `application/x-ndjson`
 * (not a type an HTML form can send, so it still needs a CORS preflight cross-origin).
 */
export const STREAMED_BODY_PATH = '/v1/memories/import';

export function isStreamedBody(req: { url?: string; method?: string }): boolean {
  return req.method === 'POST' && (req.url ?? '').split('?')[0] === STREAMED_BODY_PATH;
}

/** A request carries a body when it says so (a non-zero length or a chunked transfer). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Bodies are JSON, and only JSON. A body of any other type on a route that takes one is
 * refused with 415 before it is read, above all `application/x-www-form-urlencoded`,
 * `multipart/form-data` and `text/plain`: an HTML form on another site can send those
 * cross-origin without a CORS preflight, so accepting them would let any web page write
 * memories or report lessons in a browser that can reach the service.
 */
export function jsonOnly() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/json') return next();
    if (type === 'application/x-ndjson' && isStreamedBody(req)) return next();
    next(new DomainError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json${type ? `, got ${type.slice(0, 100)}` : ''}`));
  };
}
