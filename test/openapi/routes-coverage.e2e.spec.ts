import { isDocsRoute, registeredRoutes as routesOf } from '../support/registered-routes';
import { createTestApp, type TestApp } from '../support/test-app';
import type { OpenApiDocument } from './schema-validator';

const registeredRoutes = (t: TestApp): string[] => routesOf(t.app);

function documentedRoutes(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
  );
}

/**
 * Routes that are not REST and so not in the OpenAPI document, each with what describes it
 * instead. The response validator still checks their error bodies (the `{ error }` envelope).
 */
const NOT_OPENAPI: Record<string, string> = {
  'POST /mcp': 'MCP over Streamable HTTP: JSON-RPC bodies, described by the MCP specification and docs/mcp.md',
  'GET /mcp': '405: the MCP server is stateless (docs/mcp.md)',
  'DELETE /mcp': '405: the MCP server is stateless (docs/mcp.md)',
};

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
    const missing = registeredRoutes(t).filter((route) => !isDocsRoute(route) && !documented.has(route) && !(route in NOT_OPENAPI));
    expect(missing).toEqual([]);
    // the exceptions are real routes, and really left out
    expect(Object.keys(NOT_OPENAPI).filter((route) => !registeredRoutes(t).includes(route) || documented.has(route))).toEqual([]);
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
