/**
 * Domain errors carry a code; services throw them and the one exception filter
 * (app/http-exception.filter.ts) answers with the code's status and message. DOMAIN_ERRORS is
 * the one table of both: the filter reads it, and so does the OpenAPI documentation of each
 * route (openapi/api-errors.ts, `ApiErrors({ errors: [...] })`), so a route's documented
 * answer is the one it sends. A message given when throwing overrides the table's; the
 * 400s of validation carry the failing field's own message.
 */
export const DOMAIN_ERRORS = {
  VALIDATION_FAILED: { status: 400, message: 'Invalid input' },
  GRANTS_NEED_WORKSPACE: { status: 400, message: 'workspace_id is required: grants exist only for workspace memories' },
  VISIBILITY_NEEDS_WORKSPACE: { status: 400, message: 'workspace_id is required: visibility exists only for workspace memories' },
  CONFIG_STARTUP_ONLY_FIELDS: { status: 400, message: 'Provider and model selection is startup-only' },
  UNAUTHENTICATED: { status: 401, message: 'invalid or missing API key' },
  ADMIN_UNAUTHENTICATED: { status: 401, message: 'invalid or missing admin token' },
  SCOPE_MISMATCH: { status: 403, message: 'scope does not match the API key' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Origin not allowed (ALLOWED_ORIGINS)' },
  NOT_GRANT_OWNER: { status: 403, message: 'Only the owning agent may manage grants' },
  NOT_VISIBILITY_OWNER: { status: 403, message: 'Only the owning agent may change visibility' },
  NOT_MEMORY_OWNER: { status: 403, message: 'Only the owning agent may change this memory' },
  REPORT_SEVERITY_FORBIDDEN: {
    status: 403,
    message: 'An agent key may report lessons of at most high severity; critical needs a user key, a service key or AUTH_MODE=off',
  },
  MEMORY_NOT_FOUND: { status: 404, message: 'Memory not found' },
  LESSON_NOT_FOUND: { status: 404, message: 'Lesson not found' },
  GRANT_NOT_FOUND: { status: 404, message: 'Grant not found' },
  KEY_NOT_FOUND: { status: 404, message: 'API key not found' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook subscription not found' },
  MCP_METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST /mcp' },
  ERASURE_AGENT_NEEDS_WORKSPACE: { status: 400, message: 'agent_id requires workspace_id' },
  ERASURE_RESIDUE: { status: 409, message: 'erasure left residue and was rolled back: nothing was erased (retry)' },
  GRANT_NEEDS_RESTRICTED: { status: 409, message: 'Grants apply only to restricted memories: set visibility to restricted first' },
  IMPORT_TOO_LARGE: { status: 413, message: 'the import is larger than IMPORT_MAX_BYTES' },
  CONTENT_BLOCKED: { status: 422, message: 'content blocked by the write gate' },
  CONTENT_LOW_TRUST: { status: 422, message: 'content rejected by the write gate: trust score below the threshold' },
  GATE_BUDGET_EXCEEDED: { status: 422, message: 'content refused by the write gate: judging it exceeded the time budget per input' },
  CONFIG_MUTATION_DISABLED: { status: 410, message: 'Runtime config mutation is deprecated for production and disabled' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  RATE_LIMITED: { status: 429, message: 'rate limit exceeded for this API key' },
  // The caller reads one message for both; the provider's details (URL, socket error, body) are logged only.
  EMBEDDING_PROVIDER_BAD_RESPONSE: { status: 502, message: 'embedding service unavailable' },
  EMBEDDING_PROVIDER_UNAVAILABLE: { status: 503, message: 'embedding service unavailable' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'Database unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message?: string,
    /** Extra envelope fields: the config route's (CONTRACT section 7) and the erasure's residue (section 13). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message ?? DOMAIN_ERRORS[code].message);
    this.name = 'DomainError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
