import { trace } from '@opentelemetry/api';
import { ConsoleSpanExporter, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';

import { injectTraceHeaders, inSpan, tracingEnabled } from '../../src/common/telemetry/tracing';
import { exporterFromEnv, startTracing } from '../../src/common/telemetry/tracing-sdk';
import { EnvValidationError, loadEnv } from '../../src/env/env.schema';

const config = (vars: Record<string, string>) => loadEnv(vars);

describe('tracing configuration (the standard OTEL_* variables)', () => {
  it('is off when no exporter or endpoint is set, or with OTEL_TRACES_EXPORTER=none', () => {
    expect(exporterFromEnv(config({}))).toBeNull();
    expect(exporterFromEnv(config({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }))).toBeNull();
  });

  it('exports over OTLP when an endpoint is set, and to the console when asked', () => {
    expect(exporterFromEnv(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }))?.constructor.name).toBe('OTLPTraceExporter');
    expect(exporterFromEnv(config({ OTEL_TRACES_EXPORTER: 'otlp' }))?.constructor.name).toBe('OTLPTraceExporter');
    expect(exporterFromEnv(config({ OTEL_TRACES_EXPORTER: 'console' }))).toBeInstanceOf(ConsoleSpanExporter);
  });

  it('refuses an unknown exporter, a non-http endpoint and malformed headers at boot', () => {
    expect(() => config({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(EnvValidationError);
    expect(() => config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => config({ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    expect(config({ OTEL_EXPORTER_OTLP_HEADERS: 'x-token=a%20b,other=c' }).OTEL_EXPORTER_OTLP_HEADERS).toEqual({
      'x-token': 'a b',
      other: 'c',
    });
  });
});

describe('spans while tracing is off and on', () => {
  it('off: no span is started and no header is injected', async () => {
    expect(tracingEnabled()).toBe(false);
    const headers: Record<string, string> = {};
    await inSpan(
      'x',
      () => ({}),
      async (span) => {
        expect(span.isRecording()).toBe(false);
        injectTraceHeaders(headers);
      },
    );
    expect(headers).toEqual({});
  });

  it('on: spans reach the exporter, and shutdown turns everything off again', async () => {
    const exporter = new InMemorySpanExporter();
    const handle = startTracing({ exporter, serviceName: 'unit', batch: false });
    const headers: Record<string, string> = {};
    await inSpan(
      'outer',
      () => ({ a: 1 }),
      async () => {
        injectTraceHeaders(headers);
        await inSpan(
          'inner',
          () => ({}),
          async () => undefined,
        );
      },
    );
    await expect(
      inSpan(
        'failing',
        () => ({}),
        async () => Promise.reject(Object.assign(new Error('x'), { code: 'MEMORY_NOT_FOUND' })),
      ),
    ).rejects.toThrow();
    await handle.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['inner', 'outer', 'failing']);
    expect(spans[0].parentSpanContext?.spanId).toBe(spans[1].spanContext().spanId);
    expect(headers.traceparent).toBe(`00-${spans[1].spanContext().traceId}-${spans[1].spanContext().spanId}-01`);
    expect(spans[2].attributes['error.type']).toBe('MEMORY_NOT_FOUND');
    await handle.shutdown();
    expect(tracingEnabled()).toBe(false);
    expect(trace.getTracer('x').startSpan('after').isRecording()).toBe(false);
  });
});
