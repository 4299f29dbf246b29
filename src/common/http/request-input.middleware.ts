import type { NextFunction, Request, Response } from 'express';

import { DomainError } from '../errors/domain-error';
import { findInputProblem } from '../validation/request-input';

/**
 * Runs right after the JSON body parser and before routing, guards, pipes and DTOs: a body
 * or query string that nests too deep or holds NUL characters or lone surrogates is a 400
 * naming the field (see findInputProblem), so no later layer ever sees one. Then a top-level
 * `null` in a JSON object body is dropped (dropTopLevelNulls), except where null means
 * something (a PATCH's `expires_at: null` clears the expiry).
 */
export function checkRequestInput() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = findInputProblem(req.query, 'query') ?? (req.body === undefined ? undefined : findInputProblem(req.body, 'body'));
    if (problem) return next(new DomainError('VALIDATION_FAILED', problem));
    dropTopLevelNulls(req.body, req.method === 'PATCH' ? NULL_CLEARS_ON_PATCH : NONE);
    next();
  };
}

/**
 * A top-level field sent as JSON `null` is a field not given, as many clients write an unset
 * optional field (Python's None). Without this, @IsOptional() let null through to the services,
 * where `source_site: null` became a filter on NULL that matched nothing and `user_id: null`
 * reached an insert. Required fields still fail as missing; nulls inside metadata are kept.
 */
function dropTopLevelNulls(body: unknown, keep: ReadonlySet<string>): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (fields[key] === null && !keep.has(key)) delete fields[key];
  }
}

/** Fields whose `null` means something: on PATCH, `expires_at: null` clears an expiry (CONTRACT section 12). */
const NULL_CLEARS_ON_PATCH: ReadonlySet<string> = new Set(['expires_at']);
const NONE: ReadonlySet<string> = new Set();
