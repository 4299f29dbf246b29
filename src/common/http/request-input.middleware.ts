import type { NextFunction, Request, Response } from 'express';

import { DomainError } from '../errors/domain-error';
import { findInputProblem } from '../validation/request-input';

/**
 * Runs right after the JSON body parser and before routing, guards, pipes and DTOs: a body
 * or query string that nests too deep or holds NUL characters or lone surrogates is a 400
 * naming the field (see findInputProblem), so no later layer ever sees one.
 */
export function checkRequestInput() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = findInputProblem(req.query, 'query') ?? (req.body === undefined ? undefined : findInputProblem(req.body, 'body'));
    if (problem) return next(new DomainError('VALIDATION_FAILED', problem));
    next();
  };
}
