import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics of one Atrium instance. A registry per app (not prom-client's global
 * one), so several apps in one process (tests) keep separate counts.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'atrium_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'atrium_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly searchesBlocked = new Counter({
    name: 'atrium_searches_blocked_total',
    help: 'Searches that failed closed on a critical lesson, by scope kind',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  readonly lessonWarnings = new Counter({
    name: 'atrium_search_lesson_matches_total',
    help: 'Lesson matches reported in search responses, by severity',
    labelNames: ['severity'] as const,
    registers: [this.registry],
  });

  readonly writesRejected = new Counter({
    name: 'atrium_writes_rejected_total',
    help: 'Facts rejected by the write gate, by reason (injection, low_trust)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly gateBudgetExceeded = new Counter({
    name: 'atrium_write_gate_budget_exceeded_total',
    help: 'Inputs refused because judging them exceeded WRITE_GATE_BUDGET_MS (or killed their worker)',
    registers: [this.registry],
  });

  readonly lessonsRecorded = new Counter({
    name: 'atrium_lessons_recorded_total',
    help: 'Lessons recorded, by lesson type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly embeddingDuration = new Histogram({
    name: 'atrium_embedding_duration_seconds',
    help: 'Embedding calls by provider and kind (document, query)',
    labelNames: ['provider', 'kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly embeddingErrors = new Counter({
    name: 'atrium_embedding_errors_total',
    help: 'Failed embedding calls by provider and kind',
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });

  readonly llmDuration = new Histogram({
    name: 'atrium_llm_duration_seconds',
    help: 'LLM calls by operation (extract, decide)',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60],
    registers: [this.registry],
  });

  readonly llmErrors = new Counter({
    name: 'atrium_llm_errors_total',
    help: 'LLM calls that failed or answered unusably, by operation (the ingest fell back)',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly dbPool = new Gauge({
    name: 'atrium_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting clients)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly databaseUnavailable = new Counter({
    name: 'atrium_db_unavailable_total',
    help: 'Requests answered 503 because the database could not be reached or dropped the connection',
    registers: [this.registry],
  });

  readonly processFaults = new Counter({
    name: 'atrium_process_faults_total',
    help: 'Unhandled rejections and uncaught exceptions caught by the process fault policy (each one is a bug)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'atrium_' });
  }

  /** Time an async call into a histogram, counting failures in `errors`. */
  async time<T, L extends string>(
    histogram: Histogram<L>,
    errors: Counter<L>,
    labels: Partial<Record<L, string>>,
    call: () => Promise<T>,
  ): Promise<T> {
    const end = histogram.startTimer(labels);
    try {
      return await call();
    } catch (error) {
      errors.inc(labels);
      throw error;
    } finally {
      end();
    }
  }
}
