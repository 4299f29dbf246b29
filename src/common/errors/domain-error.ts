/**
 * Domain errors carry a code; services throw them and the one exception filter
 * (http-exception.filter.ts) owns the mapping to HTTP status and envelope.
 */
export type DomainErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'MEMORY_NOT_FOUND'
  | 'LESSON_NOT_FOUND'
  | 'GRANT_NOT_FOUND'
  | 'KEY_NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'ADMIN_UNAUTHENTICATED'
  | 'SCOPE_MISMATCH'
  | 'RATE_LIMITED'
  | 'NOT_MEMORY_OWNER'
  | 'CONFLICT'
  | 'CONTENT_BLOCKED'
  | 'CONFIG_MUTATION_DISABLED'
  | 'CONFIG_STARTUP_ONLY_FIELDS'
  | 'EMBEDDING_PROVIDER_UNAVAILABLE'
  | 'EMBEDDING_PROVIDER_BAD_RESPONSE'
  | 'DATABASE_UNAVAILABLE';

const DEFAULT_MESSAGES: Record<DomainErrorCode, string> = {
  VALIDATION_FAILED: 'Invalid input',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json',
  MEMORY_NOT_FOUND: 'Memory not found',
  LESSON_NOT_FOUND: 'Lesson not found',
  GRANT_NOT_FOUND: 'Grant not found',
  KEY_NOT_FOUND: 'API key not found',
  ROUTE_NOT_FOUND: 'Route not found',
  UNAUTHENTICATED: 'invalid or missing API key',
  ADMIN_UNAUTHENTICATED: 'invalid or missing admin token',
  SCOPE_MISMATCH: 'scope does not match the API key',
  RATE_LIMITED: 'rate limit exceeded for this API key',
  NOT_MEMORY_OWNER: 'Only the owning agent may do this',
  CONFLICT: 'Conflict',
  CONTENT_BLOCKED: 'content blocked by the write gate',
  CONFIG_MUTATION_DISABLED: 'Runtime config mutation is deprecated for production and disabled',
  CONFIG_STARTUP_ONLY_FIELDS: 'Provider and model selection is startup-only',
  EMBEDDING_PROVIDER_UNAVAILABLE: 'Embedding provider unavailable',
  EMBEDDING_PROVIDER_BAD_RESPONSE: 'Embedding provider returned an invalid response',
  DATABASE_UNAVAILABLE: 'Database unavailable',
};

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message?: string,
    /** Extra envelope fields; only the config route uses them (CONTRACT section 7). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message ?? DEFAULT_MESSAGES[code]);
    this.name = 'DomainError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
