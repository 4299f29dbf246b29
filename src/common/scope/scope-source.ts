import type { Request } from 'express';

import type { RawScopeInput } from './parse-memory-scope';

/** Scope parameters come from the query string on GET/DELETE and from the body otherwise. */
export function rawScopeFrom(req: Request): RawScopeInput {
  const source = req.method === 'GET' || req.method === 'DELETE' ? req.query : req.body;
  return typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as RawScopeInput) : {};
}
