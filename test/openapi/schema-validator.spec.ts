import type { Request } from 'express';

import { ResponseValidator } from './response-validator';
import { SchemaValidator, type OpenApiDocument } from './schema-validator';

const ID = '6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11';

const document: OpenApiDocument = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  components: {
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      Memory: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          visibility: { type: 'string', enum: ['workspace', 'agent_only'], nullable: true },
          importance: { type: 'number', minimum: 0, maximum: 1 },
          access_count: { type: 'integer' },
          created_at: { type: 'string', format: 'date-time' },
          metadata: { type: 'object', additionalProperties: true },
          tags: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 },
        },
        required: ['id', 'visibility'],
      },
      Scope: {
        oneOf: [
          { type: 'string', enum: ['all', 'self'] },
          { type: 'string', format: 'uuid' },
        ],
      },
    },
  },
  paths: {
    '/v1/memories/list': {
      get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Memory' } } } } } },
    },
    '/v1/memories/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Memory' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/metrics': { get: { responses: { '200': { content: { 'text/plain': { schema: { type: 'string' } } } } } } },
  },
};

const ok = {
  id: ID,
  visibility: null,
  importance: 0.5,
  access_count: 2,
  created_at: '2026-11-21T15:27:05.000Z',
  metadata: { any: [1] },
  tags: ['a'],
};

describe('SchemaValidator', () => {
  const v = new SchemaValidator(document);
  const memory = { $ref: '#/components/schemas/Memory' };

  it('accepts a body that matches, with nullable and open objects', () => {
    expect(v.validate(memory, ok)).toEqual([]);
  });

  it('names the JSON path of each problem', () => {
    expect(
      v.validate(memory, {
        ...ok,
        id: 'nope',
        visibility: 'public',
        importance: 2,
        access_count: 1.5,
        created_at: 'yesterday',
        tags: ['abcd', 'b', 'c'],
      }),
    ).toEqual([
      '$.id: "nope" is not a uuid',
      '$.visibility: "public" is not one of ["workspace","agent_only"]',
      '$.importance: 2 is above the maximum 1',
      '$.access_count: expected integer, got number 1.5',
      '$.created_at: "yesterday" is not a date-time',
      '$.tags: more than 2 items',
      '$.tags[0]: longer than 3 characters',
    ]);
  });

  it('reports missing required fields, undocumented fields and null where null is not allowed', () => {
    expect(v.validate(memory, { id: ID, embedding: [0.1] })).toEqual([
      '$: required property "visibility" is missing',
      '$: property "embedding" is not documented',
    ]);
    expect(v.validate(memory, { ...ok, importance: null })).toEqual(['$.importance: expected number, got null']);
  });

  it('requires exactly one oneOf alternative', () => {
    const scope = { $ref: '#/components/schemas/Scope' };
    expect(v.validate(scope, 'self')).toEqual([]);
    expect(v.validate(scope, ID)).toEqual([]);
    expect(v.validate(scope, 'others')[0]).toMatch(/^\$: "others" matches none of oneOf/);
  });

  it('refuses an unresolvable $ref', () => {
    expect(() => v.validate({ $ref: '#/components/schemas/Nope' }, {})).toThrow(/unresolvable \$ref/);
  });
});

describe('ResponseValidator', () => {
  const req = (method: string, url: string, routePath?: string) =>
    ({
      method,
      originalUrl: url,
      path: url.split('?')[0],
      baseUrl: '',
      route: routePath ? { path: routePath } : undefined,
    }) as unknown as Request;

  it('prefers the static path over a template, with or without the matched Express route', () => {
    const r = new ResponseValidator(document);
    r.check(req('GET', '/v1/memories/list?user_id=a'), 200, ok);
    r.check(req('GET', '/v1/memories/list', '/v1/memories/list'), 200, ok);
    r.check(req('GET', `/v1/memories/${ID}`, '/v1/memories/:id'), 404, { error: 'Memory not found' });
    expect(r.violations).toEqual([]);
    expect(r.checked).toBe(3);
  });

  it('counts an undocumented status, a JSON body where none is documented and a mismatched body', () => {
    const r = new ResponseValidator(document);
    r.check(req('GET', `/v1/memories/${ID}`, '/v1/memories/:id'), 403, { error: 'x' });
    r.check(req('GET', '/metrics', '/metrics'), 200, { text: 'x' });
    r.check(req('GET', `/v1/memories/${ID}`, '/v1/memories/:id'), 200, { id: ID });
    r.check(req('GET', `/v1/memories/${ID}`, '/v1/memories/:id'), 200, { id: ID });
    expect(r.violations).toEqual([
      `GET /v1/memories/{id} -> 403: status 403 is not documented (documented: 200, 404) (/v1/memories/${ID})`,
      'GET /metrics -> 200: status 200 documents no application/json body, but the route sent JSON (/metrics)',
      `GET /v1/memories/{id} -> 200: $: required property "visibility" is missing (/v1/memories/${ID})`,
      `GET /v1/memories/{id} -> 200: $: required property "visibility" is missing (/v1/memories/${ID})`,
    ]);
    expect(r.summary()?.split('\n')).toEqual([
      '4 problem(s) in 4 checked JSON responses: they do not match the OpenAPI document (/docs-json).',
      expect.stringContaining('Fix the documentation'),
      `  - GET /v1/memories/{id} -> 403: status 403 is not documented (documented: 200, 404), e.g. /v1/memories/${ID}`,
      '  - GET /metrics -> 200: status 200 documents no application/json body, but the route sent JSON, e.g. /metrics',
      `  - GET /v1/memories/{id} -> 200: $: required property "visibility" is missing (x2), e.g. /v1/memories/${ID}`,
    ]);
  });

  it('holds undocumented routes and methods to the error envelope', () => {
    const r = new ResponseValidator(document);
    r.check(req('GET', '/v1/nothing'), 404, { error: 'Route not found: GET /v1/nothing' });
    r.check(req('POST', '/metrics'), 404, { error: 'Route not found: POST /metrics' });
    expect(r.violations).toEqual([]);
    r.check(req('GET', '/v1/nothing'), 404, { message: 'nope' });
    expect(r.violations).toEqual([
      'GET /v1/nothing -> 404 (no documented operation): $: required property "error" is missing (/v1/nothing)',
      'GET /v1/nothing -> 404 (no documented operation): $: property "message" is not documented (/v1/nothing)',
    ]);
  });
});
