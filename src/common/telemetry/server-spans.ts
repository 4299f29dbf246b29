import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

import { TRACER_NAME } from './tracing';

/**
 * A SERVER span per request, child of the caller's W3C `traceparent` when it sends one.
 * The request and response emitters are bound to the span's context, so the body parser's
 * callbacks and everything after them (guards, services, the door, outgoing calls) run
 * inside it. Named `METHOD /route/:template` once routing has matched; the path never
 * carries the query string. Installed by app.setup.ts only while tracing is on.
 */
export function traceRequests(): (req: Request, res: Response, next: NextFunction) => void {
  const tracer = trace.getTracer(TRACER_NAME);
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.path, 'url.scheme': req.protocol },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const route = routeOf(req);
      if (route) {
        span.setAttribute('http.route', route);
        span.updateName(`${req.method} ${route}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, next);
  };
}

function routeOf(req: Request): string | undefined {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : undefined;
}
