import type { Request } from 'express';

import { isStreamedBody } from '../http/json-only.middleware';
import { principalOf } from '../identity/principal';
import { bindScopeToPrincipal } from './bind-scope';
import type { RawScopeInput } from './parse-memory-scope';

/** The methods whose parameters are in the query string (HEAD is a GET without the body). */
const QUERY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * Scope parameters come from the query string on GET/HEAD/DELETE and on the route that streams
 * its body (POST /v1/memories/import), and from the body otherwise,
 * bound to the caller's API key (auth/bind-scope.ts) when there is one. The workspace guard
 * and @Scope() both read them here, so both parse the same, key-bound input.
 */
export function rawScopeFrom(req: Request): RawScopeInput {
  const source = QUERY_METHODS.has(req.method) || isStreamedBody(req) ? req.query : req.body;
  const raw = typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as RawScopeInput) : {};
  return bindScopeToPrincipal(raw, principalOf(req));
}
