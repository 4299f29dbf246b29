import type { INestApplication } from '@nestjs/common';
import type { Express } from 'express';

/**
 * The routes the running app answers, read from its own Express router (Express 5: `app.router`),
 * as `METHOD /path` in the order Express tries them. The route coverage, isolation and API-key
 * suites compare their own route tables with this list, so a route added without a case there
 * fails CI.
 */
export function registeredRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as Express & {
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

/** The documentation's own routes (Swagger UI, its init script, the JSON): not API. */
export const isDocsRoute = (route: string): boolean => / \/docs(-json|\/|$)/.test(route);

/** The API routes (the documentation's left out). */
export const apiRoutes = (app: INestApplication): string[] => registeredRoutes(app).filter((route) => !isDocsRoute(route));
