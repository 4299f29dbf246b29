import type { Express } from 'express';

import { createTestApp, type TestApp } from '../support/test-app';
import type { OpenApiDocument } from './schema-validator';

/** The routes Express really answers, from the app's own router (Express 5: `app.router`). */
function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as Express & {
    router: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] };
  };
  const routes: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route || typeof layer.route.path !== 'string') continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') routes.push(`${method.toUpperCase()} ${layer.route.path}`);
    }
  }
  return routes;
}

/** The documentation's own routes (Swagger UI, its init script, the JSON) are not API. */
const isDocsRoute = (route: string): boolean => / \/docs(-json|\/|$)/.test(route);

function documentedRoutes(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
  );
}

describe('OpenAPI route coverage', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.http().get('/docs-json')).body as OpenApiDocument;
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the routes in the Express router (so the check below is not vacuous)', () => {
    const routes = registeredRoutes(t);
    expect(routes).toEqual(
      expect.arrayContaining(['GET /health', 'POST /v1/memories/search', 'DELETE /v1/memories/:id/grants/:grantee_agent_id']),
    );
    expect(routes.filter(isDocsRoute)).toEqual(expect.arrayContaining(['GET /docs', 'GET /docs-json']));
  });

  it('documents every route Nest registered, by method and path', () => {
    const documented = new Set(documentedRoutes(document));
    const missing = registeredRoutes(t).filter((route) => !isDocsRoute(route) && !documented.has(route));
    expect(missing).toEqual([]);
  });

  it('documents no route that does not exist', () => {
    const registered = new Set(registeredRoutes(t));
    expect(documentedRoutes(document).filter((route) => !registered.has(route))).toEqual([]);
  });

  it('serves the docs ahead of the API routes and the not-found handler', () => {
    const routes = registeredRoutes(t);
    const lastDocs = Math.max(...routes.map((r, i) => (isDocsRoute(r) ? i : -1)));
    const firstApi = routes.findIndex((r) => !isDocsRoute(r));
    expect(lastDocs).toBeLessThan(firstApi);
  });
});
