import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';

import { DOMAIN_ERRORS, type DomainErrorCode } from '../common/errors/domain-error';
import { SCOPE_MESSAGES } from '../common/scope/parse-memory-scope';
import { ErrorDoc } from './error.responses';

/**
 * Error responses in the `{ "error": string }` envelope (CONTRACT section 1). Each status
 * lists the messages a route really answers as examples, so an integrator sees them in the
 * document; the e2e suites fail on any status a route answers that is not documented.
 */

const DESCRIPTIONS = {
  400: 'Invalid input. The message names the field (and the limit when one was passed).',
  401: 'AUTH_MODE=api_key: a missing, unknown, revoked or expired API key (checked before anything else).',
  403: 'The caller sees the memory but is not its owning agent.',
  404: "Not found, or outside the caller's scope or visibility: both answer identically.",
  409: 'Conflict.',
  422: 'The write gate refused the text (a prompt injection, or a trust score below the threshold); nothing changed and a lesson was recorded.',
  429: "Over the API key's rate limit, or too many failed key lookups from the client address (per instance); `Retry-After` says how many seconds to wait.",
  413: 'The request body exceeds 1 MB.',
  415: 'The request has a body that is not `application/json`.',
  500: 'Internal server error; the details are only in the log.',
  502: 'The embedding service returned an invalid response (`embedding service unavailable`, with `request_id`; details only in the log).',
  503: 'The database (or, on routes that embed text, the embedding service: `embedding service unavailable`, with `request_id`) is unavailable. `Retry-After` says how many seconds to wait.',
} as const;

const STATUS_EXAMPLES = {
  413: ['Request body exceeds the 1 MB limit'],
  415: ['Content-Type must be application/json, got application/x-www-form-urlencoded'],
  500: ['Internal server error'],
  502: [DOMAIN_ERRORS.EMBEDDING_PROVIDER_BAD_RESPONSE.message],
  503: [DOMAIN_ERRORS.DATABASE_UNAVAILABLE.message],
} as const;

export type ErrorStatus = keyof typeof DESCRIPTIONS;

/** Security scheme names (registered in setup-openapi.ts). */
export const API_KEY_SECURITY = 'api_key';
export const API_KEY_HEADER_SECURITY = 'api_key_header';
export const ADMIN_SECURITY = 'admin_token';

const SCOPE_MISMATCH_MESSAGE = DOMAIN_ERRORS.SCOPE_MISMATCH.message;

/** The scope parser's messages (every memory route). */
export const SCOPE_ERRORS: string[] = [
  SCOPE_MESSAGES.userId,
  SCOPE_MESSAGES.userIdTooLong,
  SCOPE_MESSAGES.workspaceId,
  SCOPE_MESSAGES.agentRequired,
  SCOPE_MESSAGES.agentId,
];

/** Scope messages of the routes that also take agent_scope. */
export const READ_SCOPE_ERRORS: string[] = [
  ...SCOPE_ERRORS,
  SCOPE_MESSAGES.agentScope,
  SCOPE_MESSAGES.agentScopeTooMany,
  SCOPE_MESSAGES.agentScopeNeedsWorkspace,
];

const MALFORMED_JSON = 'Malformed JSON in request body';
/** What the request-input check answers for any body (see common/validation/request-input.ts). */
const BODY_INPUT_ERRORS = [MALFORMED_JSON, 'metadata.note must not contain NUL characters', 'body nests deeper than 32 levels'];

function errorResponse(status: ErrorStatus, messages: readonly string[], description?: string) {
  const examples = Object.fromEntries(messages.map((message, i) => [`e${i + 1}`, { summary: message, value: { error: message } }]));
  return ApiResponse({ status, description: description ?? DESCRIPTIONS[status], type: ErrorDoc, examples });
}

/** The statuses a route documents for itself (the others are the same on every route). */
type RouteStatus = 400 | 403 | 404 | 409 | 422;
const ROUTE_STATUSES: readonly number[] = [400, 403, 404, 409, 422] satisfies RouteStatus[];
const isRouteStatus = (status: number): status is RouteStatus => ROUTE_STATUSES.includes(status);

export interface ErrorSpec {
  /** Example messages of the 400 answers of validation (each names its field). */
  400?: readonly string[];
  /**
   * The domain errors the route answers: each is documented under its status with its
   * message, both from DOMAIN_ERRORS (the table the exception filter answers from).
   */
  errors?: readonly DomainErrorCode[];
  /** The route embeds text: 502 and 503 when the embedding provider fails. */
  embeds?: boolean;
  /** The route takes a JSON body: malformed JSON is a 400, more than 1 MB a 413. */
  body?: boolean;
}

/** The error responses of one route. */
export function ApiErrors(spec: ErrorSpec): MethodDecorator & ClassDecorator {
  const decorators: (MethodDecorator & ClassDecorator)[] = [];
  const byStatus = new Map<RouteStatus, string[]>([[400, [...(spec[400] ?? [])]]]);
  for (const code of spec.errors ?? []) {
    const { status, message } = DOMAIN_ERRORS[code];
    if (!isRouteStatus(status)) throw new Error(`ApiErrors: ${code} (${status}) is documented on every route already`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), message]);
  }
  if (spec.body) byStatus.get(400)?.push(...BODY_INPUT_ERRORS);
  for (const [status, messages] of byStatus) {
    if (messages.length > 0) decorators.push(errorResponse(status, messages));
  }
  if (spec.body) decorators.push(errorResponse(413, STATUS_EXAMPLES[413]), errorResponse(415, STATUS_EXAMPLES[415]));
  if (spec.embeds) {
    decorators.push(errorResponse(502, STATUS_EXAMPLES[502]));
    decorators.push(errorResponse(503, [...STATUS_EXAMPLES[503], DOMAIN_ERRORS.EMBEDDING_PROVIDER_UNAVAILABLE.message]));
  }
  return applyDecorators(...decorators);
}

/** 413 and 415, for a route that documents its own 400 (the config route). */
export const ApiBodyTooLarge = (): MethodDecorator & ClassDecorator =>
  applyDecorators(errorResponse(413, STATUS_EXAMPLES[413]), errorResponse(415, STATUS_EXAMPLES[415]));

/** 500 and 503 (database unavailable), which any route can answer. Applied to every controller. */
export const ApiInternalError = (): MethodDecorator & ClassDecorator =>
  applyDecorators(errorResponse(500, STATUS_EXAMPLES[500]), errorResponse(503, STATUS_EXAMPLES[503]));

/**
 * A route that needs an API key when AUTH_MODE=api_key: `Authorization: Bearer` or `X-API-Key`,
 * with its 401, the 403 of a scope that disagrees with the key, and 429.
 */
export const ApiKeyAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiBearerAuth(API_KEY_SECURITY),
    ApiSecurity(API_KEY_HEADER_SECURITY),
    errorResponse(401, [DOMAIN_ERRORS.UNAUTHENTICATED.message]),
    errorResponse(403, [SCOPE_MISMATCH_MESSAGE], "The request's scope parameters disagree with the API key (AUTH_MODE=api_key)."),
    errorResponse(429, [
      'rate limit of 600 requests per minute exceeded for this API key',
      'too many failed API key lookups from this address',
    ]),
  );

/** Admin routes: 401 without the admin token, 404 when no ATRIUM_ADMIN_TOKEN is configured. */
export const ApiAdminErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    errorResponse(
      401,
      [DOMAIN_ERRORS.ADMIN_UNAUTHENTICATED.message],
      'A missing or wrong admin token (`Authorization: Bearer <ATRIUM_ADMIN_TOKEN>`).',
    ),
    errorResponse(404, ['Route not found: GET /v1/admin/keys'], 'No ATRIUM_ADMIN_TOKEN is configured: the admin routes do not exist.'),
  );

/** Config and metrics: open in AUTH_MODE=off, the admin token with api_key. */
export const ApiAdminWithApiKey = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiBearerAuth(ADMIN_SECURITY),
    errorResponse(401, [DOMAIN_ERRORS.ADMIN_UNAUTHENTICATED.message], 'AUTH_MODE=api_key: a missing or wrong admin token.'),
  );
