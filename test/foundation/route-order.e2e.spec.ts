import type { DynamicModule } from '@nestjs/common';

import { RouteOrder, shadows } from '../../src/app/route-order';
import { apiRoutes } from '../support/registered-routes';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Fixed paths under /v1/memories (lessons, health, config) share their prefix with the
 * memories module's `/:id` routes. They answer whatever order AppModule lists its modules in
 * (app/route-order.ts); without the reordering, the `/:id` route registered first would take
 * them (the last case shows that this is a real dependence, not a vacuous test).
 */
const reversed = (registered: DynamicModule): DynamicModule => ({ ...registered, imports: [...(registered.imports ?? [])].reverse() });
const withoutRouteOrder = (registered: DynamicModule): DynamicModule => ({
  ...reversed(registered),
  providers: (registered.providers ?? []).filter((p) => p !== RouteOrder),
});

describe('route order', () => {
  describe('shadows', () => {
    it.each([
      ['/v1/memories/:id', '/v1/memories/lessons', true],
      ['/v1/memories/:id', '/v1/memories/health', true],
      ['/v1/memories/lessons', '/v1/memories/:id', false],
      ['/v1/memories/:id/grants', '/v1/memories/lessons/stats', false],
      ['/v1/memories/:id', '/v1/memories/lessons/stats', false],
      ['/v1/memories/:id', '/v1/agents/trust', false],
      ['/v1/:a/x', '/v1/b/:c', true],
    ])('%s registered before %s: shadows = %s', (earlier, later, expected) => {
      expect(shadows(earlier, later)).toBe(expected);
    });
  });

  const fixedPaths = async (t: TestApp) => ({
    lessons: (await t.http().get('/v1/memories/lessons').query({ user_id: 'route-order' })).body,
    health: (await t.http().get('/v1/memories/health')).status,
    stats: (await t.http().get('/v1/memories/lessons/stats').query({ user_id: 'route-order' })).status,
  });

  describe('with the modules in reverse order', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({}, { root: reversed });
    });
    afterAll(async () => {
      await t.close();
    });

    it('still answers the fixed paths, and the `/:id` routes', async () => {
      expect(await fixedPaths(t)).toEqual({ lessons: { lessons: [], count: 0 }, health: 200, stats: 200 });
      const missing = await t.http().get('/v1/memories/0b6c1f5e-2c1d-4f7e-8f0e-5b7f2f9d3c21').query({ user_id: 'route-order' });
      expect(missing.body).toEqual({ error: 'Memory not found' });
    });

    it('tries each fixed path before the `/:id` route of the same method', () => {
      const routes = apiRoutes(t.app);
      const at = (route: string) => routes.indexOf(route);
      for (const fixed of ['GET /v1/memories/lessons', 'GET /v1/memories/health', 'GET /v1/memories/list']) {
        expect([fixed, at(fixed) >= 0 && at(fixed) < at('GET /v1/memories/:id')]).toEqual([fixed, true]);
      }
    });
  });

  describe('without the reordering (what it prevents)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({}, { root: withoutRouteOrder });
    });
    afterAll(async () => {
      await t.close();
    });

    it('lets `/:id` take /v1/memories/lessons as an id', async () => {
      const res = await t.http().get('/v1/memories/lessons').query({ user_id: 'route-order' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: 'id must be a valid UUID' } });
    });
  });
});
