import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import pg from 'pg';

import { errorType, TRACER_NAME } from './tracing';

/** Longest `db.query.text` recorded; longer statements are cut (they are parameterized: no values). */
const MAX_QUERY_TEXT = 4096;

type QueryFn = (...args: unknown[]) => unknown;

/**
 * A CLIENT span for every statement the pg driver sends while a span is active (the door's
 * statements, TypeORM's, the audit inserts): `db.system.name`, `db.query.summary` (the named
 * statement, or operation and first table), `db.query.text` (the parameterized text: values
 * are bound and never recorded) and `db.response.returned_rows`. Statements outside any span
 * (background polling, the access tracker's flush) make no span. Installed only while
 * tracing is on; returns the function that removes it.
 */
export function installSqlSpans(): () => void {
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  const tracer = trace.getTracer(TRACER_NAME);
  proto.query = function tracedQuery(this: unknown, ...args: unknown[]): unknown {
    const parent = context.active();
    const text = statementText(args[0]);
    if (!trace.getSpan(parent) || text === undefined) return original.apply(this, args);
    const span = tracer.startSpan(
      summaryOf(args[0], text),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.query.summary': summaryOf(args[0], text),
          'db.query.text': text.length > MAX_QUERY_TEXT ? text.slice(0, MAX_QUERY_TEXT) : text,
        },
      },
      parent,
    );
    const callbackAt = args.findIndex((a) => typeof a === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (error: unknown, result: unknown) => void;
      args[callbackAt] = (error: unknown, result: unknown) => {
        finish(span, error, result);
        callback(error, result);
      };
      return context.with(trace.setSpan(parent, span), () => original.apply(this, args));
    }
    const result = context.with(trace.setSpan(parent, span), () => original.apply(this, args));
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        (value) => finish(span, undefined, value),
        (error: unknown) => finish(span, error, undefined),
      );
    } else {
      span.end();
    }
    return result;
  };
  // pool.query() takes a client through a callback; when it had to wait, that callback runs
  // in the context of whoever released the client. Bind it to the caller's context instead.
  const poolProto = pg.Pool.prototype as unknown as { connect: QueryFn };
  const hadOwnConnect = Object.prototype.hasOwnProperty.call(poolProto, 'connect');
  const connect = poolProto.connect;
  poolProto.connect = function boundConnect(this: unknown, ...args: unknown[]): unknown {
    if (typeof args[0] === 'function') args[0] = context.bind(context.active(), args[0] as QueryFn);
    return connect.apply(this, args);
  };
  return () => {
    proto.query = original;
    if (hadOwnConnect) poolProto.connect = connect;
    else delete (poolProto as { connect?: QueryFn }).connect;
  };
}

function statementText(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && typeof (config as { text?: unknown }).text === 'string')
    return (config as { text: string }).text;
  return undefined;
}

function summaryOf(config: unknown, text: string): string {
  const name = config && typeof config === 'object' ? (config as { name?: unknown }).name : undefined;
  if (typeof name === 'string') return name;
  const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  const target = /\b(?:FROM|INTO|UPDATE)\s+"?([A-Za-z_][A-Za-z0-9_]*)/i.exec(text)?.[1];
  return target ? `${operation} ${target}` : operation;
}

function finish(span: Span, error: unknown, result: unknown): void {
  if (error) {
    span.setAttribute('error.type', errorType(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    const rows = (result as { rowCount?: unknown } | undefined)?.rowCount;
    if (typeof rows === 'number') span.setAttribute('db.response.returned_rows', rows);
  }
  span.end();
}
