import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * Routes answer by specificity, whatever order their modules were registered in. Express
 * tries routes in registration order, and Nest registers them module by module, so
 * `GET /v1/memories/:id` registered before `GET /v1/memories/lessons` would take every
 * request for the latter (with `lessons` as an id). After Nest has registered every route
 * (onApplicationBootstrap runs after the router is built), each route that a route registered
 * before it would shadow is moved in front of that route. "Would shadow": the two take the
 * same method and can match the same path, and at the first segment where they differ, the
 * later one is a fixed word and the earlier one a parameter. Only such pairs move; every other
 * route (the documentation's, the not-found handler, middleware) keeps its place.
 */
interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

type Segment = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'wildcard' };

function segmentsOf(path: string): Segment[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .map((part): Segment => {
      if (part.startsWith(':')) return { kind: 'param' };
      if (part.startsWith('*') || part.includes('{') || part.includes('(')) return { kind: 'wildcard' };
      return { kind: 'static', text: part };
    });
}

function sameMethod(a: Layer, b: Layer): boolean {
  const am = a.route?.methods ?? {};
  const bm = b.route?.methods ?? {};
  if (am._all || bm._all) return true;
  return Object.keys(am).some((method) => am[method] && bm[method]);
}

/** True when `later` is more specific than `earlier` and both can match one path. */
export function shadows(earlier: string, later: string): boolean {
  const a = segmentsOf(earlier);
  const b = segmentsOf(later);
  if (a.length !== b.length || [...a, ...b].some((s) => s.kind === 'wildcard')) return false;
  let firstDifference: { earlier: Segment; later: Segment } | null = null;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.kind === 'static' && y.kind === 'static') {
      if (x.text !== y.text) return false; // never the same path
      continue;
    }
    if (x.kind !== y.kind) firstDifference ??= { earlier: x, later: y };
  }
  return firstDifference !== null && firstDifference.earlier.kind === 'param' && firstDifference.later.kind === 'static';
}

/** Reorders `stack` in place; returns how many routes moved. */
export function orderRoutesBySpecificity(stack: Layer[]): number {
  let moved = 0;
  // Each pass moves one route in front of the first route that shadows it; a route only ever
  // moves forward past a less specific one, so the passes end (at most one per pair).
  for (let pass = 0; pass <= stack.length * stack.length; pass++) {
    let changed = false;
    for (let j = 0; j < stack.length && !changed; j++) {
      const later = stack[j];
      if (typeof later.route?.path !== 'string') continue;
      for (let i = 0; i < j; i++) {
        const earlier = stack[i];
        if (typeof earlier.route?.path !== 'string' || !sameMethod(earlier, later)) continue;
        if (shadows(earlier.route.path, later.route.path)) {
          stack.splice(j, 1);
          stack.splice(i, 0, later);
          moved++;
          changed = true;
          break;
        }
      }
    }
    if (!changed) return moved;
  }
  throw new Error('orderRoutesBySpecificity: the routes did not settle');
}

@Injectable()
export class RouteOrder implements OnApplicationBootstrap {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const instance = this.adapter.httpAdapter?.getInstance() as { router?: { stack: Layer[] } } | undefined;
    if (instance?.router) orderRoutesBySpecificity(instance.router.stack);
  }
}
