import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

import type { AppEnv } from '../../env/env.schema';
import { installSqlSpans } from './sql-spans';
import { setTracingEnabled } from './tracing';

export interface TracingOptions {
  exporter: SpanExporter;
  serviceName: string;
  /** Batch spans before export (the default); a test's in-memory exporter wants them at once. */
  batch?: boolean;
}

export interface TracingHandle {
  forceFlush(): Promise<void>;
  /** Flushes, then removes the provider, propagator, context manager and SQL spans. */
  shutdown(): Promise<void>;
}

type TracingEnv = Pick<
  AppEnv,
  | 'OTEL_TRACES_EXPORTER'
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_HEADERS'
  | 'OTEL_SERVICE_NAME'
>;

/**
 * The exporter the standard OTEL_* variables ask for, or null (tracing off). Off unless
 * OTEL_TRACES_EXPORTER names one, or (unset) an OTLP endpoint is given; `none` is off even
 * with an endpoint. OTLP goes over HTTP with JSON bodies to `<endpoint>/v1/traces` (or the
 * traces endpoint as given).
 */
export function exporterFromEnv(env: TracingEnv): SpanExporter | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? tracesPath(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const kind = env.OTEL_TRACES_EXPORTER ?? (endpoint ? 'otlp' : 'none');
  switch (kind) {
    case 'none':
      return null;
    case 'console':
      return new ConsoleSpanExporter();
    case 'otlp':
      return new OTLPTraceExporter({ url: endpoint ?? 'http://localhost:4318/v1/traces', headers: env.OTEL_EXPORTER_OTLP_HEADERS });
  }
}

function tracesPath(base: string | undefined): string | undefined {
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** Start tracing from the environment (main.ts); null when no exporter is configured. */
export function startTracingFromEnv(env: TracingEnv): TracingHandle | null {
  const exporter = exporterFromEnv(env);
  return exporter ? startTracing({ exporter, serviceName: env.OTEL_SERVICE_NAME }) : null;
}

/**
 * Register a tracer provider, the W3C trace-context propagator and an AsyncLocalStorage
 * context manager with the OpenTelemetry API, and turn on the service's spans. One per process.
 */
export function startTracing(options: TracingOptions): TracingHandle {
  const processor = options.batch === false ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(options.exporter);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const removeSqlSpans = installSqlSpans();
  setTracingEnabled(true);
  return {
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      setTracingEnabled(false);
      removeSqlSpans();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
