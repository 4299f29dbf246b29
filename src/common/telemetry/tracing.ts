import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

import type { MemoryScope } from '../scope/memory-scope';

/**
 * The service's spans, through the OpenTelemetry API only. Until tracing-sdk.ts registers a
 * provider (OTEL_* variables name an exporter), `enabled` is false and every helper here calls
 * its function straight away with the API's non-recording span: no span object, no context
 * switch, no attribute built. docs/observability.md lists the spans and their attributes.
 */
export const TRACER_NAME = 'atrium';

const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let tracer: Tracer = trace.getTracer(TRACER_NAME);
let enabled = false;

export function tracingEnabled(): boolean {
  return enabled;
}

/** Called by tracing-sdk.ts when it registers (true) or removes (false) the provider. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
  tracer = trace.getTracer(TRACER_NAME);
}

/** `gen_ai.operation.name` values of the GenAI memory conventions that Atrium emits. */
export type MemoryOperation = 'search_memory' | 'create_memory' | 'update_memory' | 'delete_memory';

/**
 * Run `fn` in a span named `name`, ended when its promise settles. A failure sets the span's
 * status and `error.type` (the domain error's code or the error's class name, never its
 * message, which could quote input) and is rethrown.
 */
export function inSpan<T>(
  name: string,
  attributes: () => Attributes,
  fn: (span: Span) => Promise<T>,
  kind = SpanKind.INTERNAL,
): Promise<T> {
  if (!enabled) return fn(NOOP_SPAN);
  return tracer.startActiveSpan(name, { kind, attributes: attributes() }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.setAttribute('error.type', errorType(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A memory operation span per the GenAI memory conventions: named by the operation, with
 * `gen_ai.operation.name`, `gen_ai.memory.store.id` (the scope: the user, or user/workspace),
 * `gen_ai.agent.id` in a workspace, and whatever ids and counts the caller adds. Never the
 * query text or the records (the conventions' opt-in content attributes are not emitted).
 */
export function memorySpan<T>(
  operation: MemoryOperation,
  scope: MemoryScope,
  fn: (span: Span) => Promise<T>,
  recordId?: string,
): Promise<T> {
  return inSpan(
    operation,
    () => {
      const attributes: Attributes = {
        'gen_ai.operation.name': operation,
        'gen_ai.memory.store.id': storeId(scope),
        'atrium.scope.kind': scope.kind,
      };
      if (scope.kind === 'workspace') attributes['gen_ai.agent.id'] = scope.agentId;
      if (recordId !== undefined) attributes['gen_ai.memory.record.id'] = recordId;
      return attributes;
    },
    fn,
  );
}

/** What `gen_ai.memory.store.id` maps to in Atrium: the user's store, or a workspace of it. */
export function storeId(scope: MemoryScope): string {
  return scope.kind === 'workspace' ? `${scope.userId}/${scope.workspaceId}` : scope.userId;
}

/** Adds the W3C `traceparent` (and `tracestate`) of the active span to an outgoing request's headers. */
export function injectTraceHeaders(headers: Record<string, string>): void {
  if (enabled) propagation.inject(context.active(), headers);
}

export function errorType(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name.length <= 64) return name;
  }
  return '_OTHER';
}

/** `inSpan` for synchronous work (the write gate's input assessment, the lesson summary). */
export function inSpanSync<T>(name: string, attributes: () => Attributes, fn: (span: Span) => T): T {
  if (!enabled) return fn(NOOP_SPAN);
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes: attributes() }, (span) => {
    try {
      return fn(span);
    } catch (error) {
      span.setAttribute('error.type', errorType(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
