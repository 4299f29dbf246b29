import { RUNTIME_FIELDS } from '../../src/settings/runtime-config';
import { createTestApp, type TestApp } from '../support/test-app';
import { SchemaValidator, type OpenApiDocument, type OpenApiOperation, type SchemaObject } from './schema-validator';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

describe('API documentation', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let validator: SchemaValidator;

  const operation = (method: string, path: string): OpenApiOperation => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return op;
  };
  const schema = (name: string): SchemaObject => {
    const s = doc.components?.schemas?.[name];
    if (!s) throw new Error(`schema ${name} is not documented`);
    return s;
  };
  const property = (name: string, prop: string): SchemaObject => validator.resolve(schema(name).properties?.[prop] ?? {});
  const bodySchema = (method: string, path: string): SchemaObject =>
    validator.resolve(operation(method, path).requestBody?.content?.['application/json']?.schema ?? {});
  const queryParam = (method: string, path: string, name: string) => {
    const param = operation(method, path).parameters?.find((p) => p.in === 'query' && p.name === name);
    if (!param) throw new Error(`${method.toUpperCase()} ${path} documents no query parameter ${name}`);
    return param;
  };
  const responseSchema = (method: string, path: string, status: number): SchemaObject =>
    validator.resolve(operation(method, path).responses[String(status)]?.content?.['application/json']?.schema ?? {});

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.http().get('/docs-json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as OpenApiDocument;
    validator = new SchemaValidator(doc);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('/docs', () => {
    it('answers the Swagger UI page', async () => {
      const res = await t.http().get('/docs');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('swagger-ui-bundle.js');
      expect(res.text).toContain('Atrium API');
    });

    it('serves every asset the page loads from the service itself, never from a CDN', async () => {
      const page = (await t.http().get('/docs')).text;
      const assets = [...page.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThanOrEqual(4);
      for (const asset of assets) {
        expect(asset).not.toMatch(/^(https?:)?\/\//);
        const res = await t.http().get(`/${asset.replace(/^\.\//, '')}`);
        expect([asset, res.status]).toEqual([asset, 200]);
      }
    });

    it('embeds the same document in the UI init script', async () => {
      const res = await t.http().get('/docs/swagger-ui-init.js');
      expect(res.status).toBe(200);
      expect(res.text).toContain('"/v1/memories/search"');
    });

    it('leaves unknown paths under /docs to the JSON 404', async () => {
      const res = await t.http().get('/docs/nothing-here.js');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Route not found: GET /docs/nothing-here.js' });
    });
  });

  describe('/docs-json', () => {
    it('is an OpenAPI 3 document with info and paths', () => {
      expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(doc.info.title).toBe('Atrium');
      expect(typeof doc.info.version).toBe('string');
      expect(Object.keys(doc.paths).length).toBeGreaterThan(15);
    });

    it('resolves every $ref', () => {
      const refs: string[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          for (const [key, value] of Object.entries(node)) {
            if (key === '$ref' && typeof value === 'string') refs.push(value);
            else walk(value);
          }
        }
      };
      walk(doc);
      expect(refs.length).toBeGreaterThan(20);
      for (const ref of refs) expect(() => validator.resolve({ $ref: ref })).not.toThrow();
    });

    it('gives every operation a unique operationId, a summary, path parameters and documented responses', () => {
      const ids = new Set<string>();
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          expect(METHODS).toContain(method);
          const where = `${method.toUpperCase()} ${path}`;
          expect([where, typeof op.operationId]).toEqual([where, 'string']);
          expect(ids.has(op.operationId as string)).toBe(false);
          ids.add(op.operationId as string);
          expect([where, typeof op.summary]).toEqual([where, 'string']);
          const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
          const declared = (op.parameters ?? [])
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort();
          expect([where, declared]).toEqual([where, pathParams]);
          const statuses = Object.keys(op.responses);
          expect([where, statuses.some((s) => /^2\d\d$/.test(s))]).toEqual([where, true]);
          expect([where, statuses]).toEqual([where, expect.arrayContaining(['500'])]);
        }
      }
    });

    it('documents every error in the { error } envelope (the config route adds detail and rejected)', () => {
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          for (const [status, response] of Object.entries(op.responses)) {
            if (Number(status) < 400 || (path === '/health' && status === '503')) continue;
            const s = response.content?.['application/json']?.schema;
            expect([`${method} ${path} ${status}`, s !== undefined]).toEqual([`${method} ${path} ${status}`, true]);
            expect(validator.validate(s as SchemaObject, { error: 'message' })).toEqual(
              path === '/v1/memories/config' && status === '410' ? ['$: required property "detail" is missing'] : [],
            );
          }
        }
      }
    });

    it('has examples that match their own schemas', () => {
      const problems: string[] = [];
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          for (const [status, response] of Object.entries(op.responses)) {
            const media = response.content?.['application/json'] as
              { schema?: SchemaObject; examples?: Record<string, { value: unknown }> } | undefined;
            for (const [name, example] of Object.entries(media?.examples ?? {})) {
              for (const p of validator.validate(media?.schema ?? {}, example.value))
                problems.push(`${method} ${path} ${status} ${name}: ${p}`);
            }
          }
        }
      }
      for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
        for (const [prop, child] of Object.entries(s.properties ?? {})) {
          if ('example' in child) for (const p of validator.validate(child, child.example)) problems.push(`${name}.${prop}: ${p}`);
        }
      }
      expect(problems).toEqual([]);
    });
  });

  describe("the contract's enums and limits", () => {
    it('visibility: workspace | agent_only | restricted, on ingest, the visibility change and every memory record', () => {
      for (const s of [
        bodySchema('post', '/v1/memories/ingest').properties?.visibility,
        bodySchema('patch', '/v1/memories/{id}').properties?.visibility,
      ]) {
        expect(s?.enum).toEqual(['workspace', 'agent_only', 'restricted']);
      }
      expect(property('MemoryRecord', 'visibility')).toMatchObject({ enum: ['workspace', 'agent_only', 'restricted'], nullable: true });
      // PATCH takes any of visibility, content, metadata and expires_at (CONTRACT section 12): only user_id is required.
      expect(bodySchema('patch', '/v1/memories/{id}').required).toEqual(['user_id']);
      expect(Object.keys(bodySchema('patch', '/v1/memories/{id}').properties ?? {})).toEqual(
        expect.arrayContaining(['visibility', 'content', 'metadata', 'expires_at']),
      );
    });

    it('limit: an integer 1..100 on list (default 20) and search (default 10); offset >= 0', () => {
      expect(queryParam('get', '/v1/memories/list', 'limit').schema).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: 20,
      });
      expect(queryParam('get', '/v1/memories/list', 'offset').schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
      for (const path of ['/v1/memories/search', '/v1/memories/search/fast']) {
        expect(bodySchema('post', path).properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
      }
    });

    it('text limits: conversation 1..100000, query 1..10000, pattern 1..2000, user_id 1..256', () => {
      for (const path of ['/v1/memories/ingest', '/v1/memories/ingest/quick']) {
        expect(bodySchema('post', path).properties?.conversation).toMatchObject({ type: 'string', minLength: 1, maxLength: 100000 });
        expect(bodySchema('post', path).required).toEqual(expect.arrayContaining(['user_id', 'conversation', 'source_site']));
      }
      expect(bodySchema('post', '/v1/memories/search').properties?.query).toMatchObject({ minLength: 1, maxLength: 10000 });
      expect(bodySchema('post', '/v1/memories/lessons/report').properties?.pattern).toMatchObject({ minLength: 1, maxLength: 2000 });
      expect(queryParam('get', '/v1/memories/list', 'user_id')).toMatchObject({ required: true, schema: { minLength: 1, maxLength: 256 } });
    });

    it('expand: memory_ids is an array of 1..100 UUIDs', () => {
      expect(bodySchema('post', '/v1/memories/expand').properties?.memory_ids).toMatchObject({
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: { type: 'string', format: 'uuid' },
      });
    });

    it('lessons: severity low | medium | high | critical (default high), five lesson types', () => {
      expect(bodySchema('post', '/v1/memories/lessons/report').properties?.severity).toMatchObject({
        enum: ['low', 'medium', 'high', 'critical'],
        default: 'high',
      });
      expect(property('Lesson', 'lesson_type').enum).toEqual([
        'injection_blocked',
        'trust_violation',
        'contradiction_pattern',
        'false_memory',
        'user_reported',
      ]);
      expect(property('LessonCheck', 'highest_severity').enum).toEqual(['low', 'medium', 'high', 'critical', 'none']);
      expect(operation('post', '/v1/memories/lessons/report').responses).toHaveProperty('201');
    });

    it('metadata: an object of at most 32 KB; trust_level 0..1', () => {
      expect(bodySchema('post', '/v1/memories/ingest').properties?.metadata).toMatchObject({ type: 'object' });
      expect(bodySchema('post', '/v1/memories/ingest').properties?.metadata?.description).toContain('32 KB');
      expect(bodySchema('put', '/v1/agents/trust').properties?.trust_level).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    });

    it('agent_scope: all | self | others | uuid | uuid[] in bodies, a repeatable query parameter on GET/DELETE', () => {
      const body = bodySchema('post', '/v1/memories/search').properties?.agent_scope as SchemaObject;
      for (const ok of ['all', 'self', 'others', '6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11', ['6f1c0a56-6a3e-4c43-9a55-0d1f0c8f1a11']]) {
        expect(validator.validate(body, ok)).toEqual([]);
      }
      for (const bad of ['everybody', [], 5]) expect(validator.validate(body, bad)).not.toEqual([]);
      for (const [method, path] of [
        ['get', '/v1/memories/list'],
        ['get', '/v1/memories/export'],
        ['get', '/v1/memories/{id}'],
        ['delete', '/v1/memories/{id}'],
      ]) {
        const param = queryParam(method, path, 'agent_scope');
        expect(param).toMatchObject({ required: false, style: 'form', explode: true, schema: { type: 'array', maxItems: 100 } });
        expect(param.description).toMatch(/comma-separated/);
      }
    });

    it('documents the scope parameters on every memory route', () => {
      const memoryRoutes = Object.entries(doc.paths)
        .filter(([path]) => /^\/v1\/memories\/(?!lessons|health|config)/.test(path))
        .flatMap(([path, ops]) => Object.keys(ops).map((method) => [method, path] as const));
      expect(memoryRoutes.length).toBe(15); // with GET /v1/memories/export and POST /v1/memories/import (issue 24)
      for (const [method, path] of memoryRoutes) {
        // Import streams its body (NDJSON): its scope is in the query string, as on reads.
        const names =
          ['get', 'delete'].includes(method) || path === '/v1/memories/import'
            ? (operation(method, path).parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
            : Object.keys(bodySchema(method, path).properties ?? {});
        expect([method, path, names]).toEqual([method, path, expect.arrayContaining(['user_id', 'workspace_id', 'agent_id'])]);
      }
    });

    it('documents every runtime config field in the PUT /v1/memories/config body, and only those', () => {
      expect(Object.keys(bodySchema('put', '/v1/memories/config').properties ?? {}).sort()).toEqual(Object.keys(RUNTIME_FIELDS).sort());
      expect(bodySchema('put', '/v1/memories/config').required).toBeUndefined();
    });

    it('documents the config envelopes: 410 {error, detail} and 400 {error, detail, rejected}', () => {
      expect(responseSchema('put', '/v1/memories/config', 410).required).toEqual(['error', 'detail']);
      const bad = operation('put', '/v1/memories/config').responses['400'].content?.['application/json']?.schema as SchemaObject;
      expect(validator.validate(bad, { error: 'x', detail: 'y', rejected: ['embedding_model'] })).toEqual([]);
      expect(validator.validate(bad, { error: 'x' })).toEqual([]);
      expect(validator.validate(bad, { error: 'x', detail: 'y', rejected: ['lessons_enabled'] })).not.toEqual([]);
    });

    it('documents the memory record without an embedding, and the lesson_check as optional', () => {
      expect(Object.keys(schema('MemoryRecord').properties ?? {})).not.toContain('embedding');
      expect(schema('MemoryRecord').required).toHaveLength(22);
      expect(schema('SearchResponse').required).not.toContain('lesson_check');
      expect(schema('SearchResponse').properties).toHaveProperty('lesson_check');
    });
  });
});
