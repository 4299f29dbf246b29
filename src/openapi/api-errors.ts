import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

import { SCOPE_MESSAGES } from '../common/scope/parse-memory-scope';
import { ErrorDoc } from './error.responses';

/**
 * Error responses in the `{ "error": string }` envelope (CONTRACT section 1). Each status
 * lists the messages a route really answers as examples, so an integrator sees them in the
 * document; the e2e suites fail on any status a route answers that is not documented.
 */

const DESCRIPTIONS = {
  400: 'Invalid input. The message names the field (and the limit when one was passed).',
  403: 'The caller sees the memory but is not its owning agent.',
  404: "Not found, or outside the caller's scope or visibility: both answer identically.",
  409: 'Conflict.',
  413: 'The request body exceeds 1 MB.',
  500: 'Internal server error; the details are only in the log.',
  502: 'The embedding provider returned an invalid response.',
  503: 'The embedding provider is unavailable.',
} as const;

const STATUS_EXAMPLES = {
  413: ['Request body exceeds the 1 MB limit'],
  500: ['Internal server error'],
  502: ['Embedding provider returned an invalid response'],
  503: ['Embedding provider unavailable'],
} as const;

export type ErrorStatus = keyof typeof DESCRIPTIONS;

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

function errorResponse(status: ErrorStatus, messages: readonly string[], description?: string) {
  const examples = Object.fromEntries(messages.map((message, i) => [`e${i + 1}`, { summary: message, value: { error: message } }]));
  return ApiResponse({ status, description: description ?? DESCRIPTIONS[status], type: ErrorDoc, examples });
}

export interface ErrorSpec {
  /** Example messages of the 400 answers. */
  400?: readonly string[];
  403?: readonly string[];
  404?: readonly string[];
  409?: readonly string[];
  /** The route embeds text: 502 and 503 when the embedding provider fails. */
  embeds?: boolean;
  /** The route takes a JSON body: malformed JSON is a 400, more than 1 MB a 413. */
  body?: boolean;
}

/** The error responses of one route. */
export function ApiErrors(spec: ErrorSpec): MethodDecorator & ClassDecorator {
  const decorators: (MethodDecorator & ClassDecorator)[] = [];
  const badRequest = [...(spec[400] ?? []), ...(spec.body ? [MALFORMED_JSON] : [])];
  if (badRequest.length > 0) decorators.push(errorResponse(400, badRequest));
  for (const status of [403, 404, 409] as const) {
    const messages = spec[status];
    if (messages) decorators.push(errorResponse(status, messages));
  }
  if (spec.body) decorators.push(errorResponse(413, STATUS_EXAMPLES[413]));
  if (spec.embeds) {
    decorators.push(errorResponse(502, STATUS_EXAMPLES[502]));
    decorators.push(errorResponse(503, STATUS_EXAMPLES[503]));
  }
  return applyDecorators(...decorators);
}

/** 413 alone, for a route that documents its own 400 (the config route). */
export const ApiBodyTooLarge = (): MethodDecorator & ClassDecorator => errorResponse(413, STATUS_EXAMPLES[413]);

/** 500, which any route can answer. Applied to every controller. */
export const ApiInternalError = (): MethodDecorator & ClassDecorator => errorResponse(500, STATUS_EXAMPLES[500]);
