/**
 * Which errors mean "the database is not there right now" (a 503 the client may retry), as
 * opposed to a bug or bad data (a 500). Decided from what pg, pg-pool and TypeORM put on the
 * error: a PostgreSQL SQLSTATE class, a socket error code, or the driver's own messages for a
 * connection that died or could not be made.
 */

/** SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources, 57P0x shutdown/terminate, 57014 statement timeout. */
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[1-4]|57014)$/;

const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
  /Query read timeout/i,
  /is not currently accepting connections/i, // ALLOW_CONNECTIONS false (SQLSTATE 55000, only ever at connect)
];

/**
 * TypeORM's own errors for a connection that is gone. QueryRunnerAlreadyReleasedError and
 * QueryRunnerProviderAlreadyReleasedError come from a transaction whose backend was terminated
 * mid-way: the dead client was released, and the COMMIT or the next statement of the
 * transaction finds the runner gone; the server rolled the transaction back, so a retry is
 * safe. (Both found by the fuzzer under backend terminations.)
 */
const UNAVAILABLE_TYPEORM_ERRORS = new Set([
  'ConnectionIsNotSetError',
  'CannotExecuteNotConnectedError',
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; name?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    if (code && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
    if (typeof candidate.name === 'string' && UNAVAILABLE_TYPEORM_ERRORS.has(candidate.name)) return true;
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(candidate.message as string)))
      return true;
    current = candidate.driverError;
  }
  return false;
}

/** Seconds a client should wait before retrying a request answered 503. */
export const RETRY_AFTER_SECONDS = 2;

/** Whether `error` (a pg error, or TypeORM's wrapper of one) is a violation of the constraint named `constraint`. */
export function isConstraintViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; driverError?: unknown };
    if (typeof candidate.code === 'string' && candidate.code.startsWith('23') && candidate.constraint === constraint) return true;
    current = candidate.driverError;
  }
  return false;
}
