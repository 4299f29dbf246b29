import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';

import { DOMAIN_ERRORS, DomainError, type DomainErrorCode } from '../common/errors/domain-error';
import type { AuthenticatedRequest } from '../common/identity/principal';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../database/database-errors';
import { EmbeddingProviderError } from '../embeddings/embedding-provider';

/** HTTP status for each domain error code (DOMAIN_ERRORS, the one table). */
export function statusForCode(code: DomainErrorCode): number {
  return DOMAIN_ERRORS[code].status;
}

export interface ErrorBody {
  error: string;
  [extra: string]: unknown;
}

/**
 * Turn anything thrown into a status and `{ error }` body. Client mistakes keep their
 * message; anything unexpected becomes 500 `Internal server error` and is logged in full.
 */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  unexpected: boolean;
  /** Set on 503: how many seconds to wait before retrying (the `Retry-After` header). */
  retryAfterSeconds?: number;
  /** The database was unreachable or dropped the connection (counted in metrics). */
  databaseUnavailable?: boolean;
  /** The embedding service failed: its details (endpoint, socket error, upstream body) go to the log only. */
  embeddingFailure?: string;
}

/** What a caller reads when the embedding service fails: never its URL, socket errors or response body. */
export const EMBEDDING_FAILURE_MESSAGE = 'embedding service unavailable';

export function toErrorResponse(exception: unknown): ErrorResponse {
  const response = classify(exception);
  if (response.status === HttpStatus.SERVICE_UNAVAILABLE) response.retryAfterSeconds = RETRY_AFTER_SECONDS;
  return response;
}

function classify(exception: unknown): ErrorResponse {
  if (isDatabaseUnavailable(exception)) {
    const code = 'DATABASE_UNAVAILABLE';
    return { status: statusForCode(code), body: { error: new DomainError(code).message }, unexpected: false, databaseUnavailable: true };
  }
  if (exception instanceof DomainError) {
    return { status: statusForCode(exception.code), body: { error: exception.message, ...exception.extra }, unexpected: false };
  }
  if (exception instanceof EmbeddingProviderError) {
    const code = exception.kind === 'unavailable' ? 'EMBEDDING_PROVIDER_UNAVAILABLE' : 'EMBEDDING_PROVIDER_BAD_RESPONSE';
    return {
      status: statusForCode(code),
      body: { error: EMBEDDING_FAILURE_MESSAGE },
      unexpected: false,
      embeddingFailure: exception.message,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    let message = exception.message;
    if (typeof response === 'object' && response !== null && 'message' in response) {
      const raw = (response as { message: unknown }).message;
      message = Array.isArray(raw) ? raw.join('; ') : String(raw);
    }
    if (status === HttpStatus.NOT_FOUND && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(message)) {
      message = `Route not found: ${message.replace(/^Cannot /, '')}`;
    }
    if (status >= 500) return { status, body: { error: 'Internal server error' }, unexpected: true };
    return { status, body: { error: message }, unexpected: false };
  }
  // Errors raised by body-parser and other Express middleware carry `status`/`type`.
  const candidate = exception as { status?: unknown; statusCode?: unknown; type?: unknown; limit?: unknown };
  if (candidate && typeof candidate === 'object') {
    if (candidate.type === 'entity.parse.failed') {
      return { status: 400, body: { error: 'Malformed JSON in request body' }, unexpected: false };
    }
    if (candidate.type === 'entity.too.large') {
      return { status: 413, body: { error: 'Request body exceeds the 1 MB limit' }, unexpected: false };
    }
    const status = Number(candidate.status ?? candidate.statusCode);
    if (Number.isInteger(status) && status >= 400 && status < 500) {
      const message = exception instanceof Error ? exception.message : 'Bad request';
      return { status, body: { error: message }, unexpected: false };
    }
  }
  return { status: 500, body: { error: 'Internal server error' }, unexpected: true };
}

/** The one exception filter: every error leaves as `{ "error": string }` JSON. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly onDatabaseUnavailable: () => void = () => undefined) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const { status, body, unexpected, retryAfterSeconds, databaseUnavailable, embeddingFailure } = toErrorResponse(exception);
    if (embeddingFailure !== undefined) {
      // The caller gets the request id to quote; the details are logged under it.
      const requestId = (req as AuthenticatedRequest).requestId ?? null;
      this.logger.warn(`${req.method} ${req.path}: embedding service failed (request ${requestId ?? '-'}): ${embeddingFailure}`);
      if (requestId !== null) body.request_id = requestId;
    }
    if (databaseUnavailable) {
      this.onDatabaseUnavailable();
      this.logger.warn(
        `${req.method} ${req.path}: database unavailable (${exception instanceof Error ? exception.message : String(exception)})`,
      );
    }
    if (unexpected) {
      this.logger.error(
        `${req.method} ${req.originalUrl} failed: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
    // RFC 9110: a 401 names its scheme. MCP clients (CONTRACT section 11) read it on /mcp.
    if (exception instanceof DomainError && exception.code === 'UNAUTHENTICATED') res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(status).json(body);
  }
}
