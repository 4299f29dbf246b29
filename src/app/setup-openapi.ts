import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

import { ADMIN_SECURITY, API_KEY_HEADER_SECURITY, API_KEY_SECURITY } from '../openapi/api-errors';
import { ErrorDoc } from '../openapi/error.responses';
import { AGENT_SCOPE_QUERY_PARAMETER } from '../openapi/scope.schema';
import { SEARCH_EXTRA_MODELS } from '../retrieval/search.responses';
import { ConfigStartupOnlyDoc } from '../settings/settings.responses';

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = '/docs-json';

const DESCRIPTION = `
A memory service for AI agents: memories of a user account, searched, expanded, listed and deleted under a
**scope** (the user's personal memories, or a workspace where several agents share and keep private memories).

- JSON in both directions, snake_case fields. Timestamps are ISO-8601 in UTC. Memory, lesson, workspace and agent ids are UUIDs.
- Every error body is \`{ "error": string }\` (the config route adds \`detail\` and \`rejected\`); a 400 names the field.
- Scope parameters on every memory route (query string on GET/DELETE, JSON body on POST/PATCH): \`user_id\` (required),
  \`workspace_id\` and \`agent_id\` (together, for workspace scope), and on reads \`agent_scope\`.
- Anything outside the caller's scope or visibility answers exactly like something that does not exist (404).
- Request bodies are limited to 1 MB (413).
- With AUTH_MODE=api_key every /v1 route needs an API key (\`Authorization: Bearer\` or \`X-API-Key\`) and takes its scope from
  the key; the admin routes, the config change and /metrics need the admin token.
`.trim();

/** The OpenAPI 3 document, generated from the controllers, DTOs and src/openapi response classes. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Atrium')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addTag('Memories', 'Ingest, search, expand, list, get, delete and visibility changes, under a user or workspace scope.')
    .addTag('Grants', 'Access to restricted workspace memories, managed by the owning agent.')
    .addTag('Lessons', 'Patterns learnt from blocked writes, contradictions and reports; checked before every search.')
    .addTag('Agents', 'Per-agent trust levels.')
    .addTag('Settings', 'Effective runtime config and its changes.')
    .addTag('Health', 'Liveness and readiness.')
    .addTag('Metrics', 'Prometheus metrics.')
    .addTag('Admin', 'API keys and the audit log (the admin token; absent without ATRIUM_ADMIN_TOKEN).')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'AUTH_MODE=api_key: an API key (`atr_...`).' }, API_KEY_SECURITY)
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'AUTH_MODE=api_key: the same key in X-API-Key.' },
      API_KEY_HEADER_SECURITY,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ATRIUM_ADMIN_TOKEN.' }, ADMIN_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorDoc, ConfigStartupOnlyDoc, ...SEARCH_EXTRA_MODELS],
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  describeAgentScopeQuery(document);
  return document;
}

/**
 * The DTOs describe agent_scope once, in its JSON-body form (a string or an array). In a
 * query string it is a repeatable parameter (or one comma-separated value), which OpenAPI
 * says with `style: form, explode: true` on an array: @nestjs/swagger cannot express that
 * from the shared DTO, so it is set here on every query parameter named agent_scope.
 */
function describeAgentScopeQuery(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of [pathItem.get, pathItem.delete]) {
      for (const parameter of operation?.parameters ?? []) {
        if ('in' in parameter && parameter.in === 'query' && parameter.name === 'agent_scope') {
          Object.assign(parameter, AGENT_SCOPE_QUERY_PARAMETER);
        }
      }
    }
  }
}

/**
 * Serves Swagger UI at /docs and the JSON document at /docs-json. Called from configureApp
 * before app.init(), so these routes sit in front of Nest's router and its not-found handler.
 * The UI's assets come from swagger-ui-dist inside node_modules (no CDN). The document is
 * built (once) on the first request.
 */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Atrium API',
  });
}
