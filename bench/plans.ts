/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the repository really sends: the repository
 * runs once on a data source whose logger records every query, then each recorded SELECT
 * is explained on the same connection, inside a transaction that first replays the
 * transaction-local settings the repository set (set_config(..., true)).
 */
import type { DataSource, QueryRunner, Logger as TypeOrmLogger } from 'typeorm';

export interface RecordedQuery {
  sql: string;
  parameters: unknown[];
}

export class QueryRecorder implements TypeOrmLogger {
  recording = false;
  queries: RecordedQuery[] = [];

  logQuery(query: string, parameters?: unknown[]): void {
    if (this.recording) this.queries.push({ sql: query, parameters: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  async capture(work: () => Promise<unknown>): Promise<RecordedQuery[]> {
    this.queries = [];
    this.recording = true;
    try {
      await work();
    } finally {
      this.recording = false;
    }
    return this.queries;
  }
}

/** The entity's column list, written out by TypeORM in every statement, as one placeholder. */
export function condenseColumns(sql: string): string {
  return sql.replace(/"(\w+)"\."\w+" AS "\1_\w+"(, "\1"\."\w+" AS "\1_\w+")+/g, (_m, alias: string) => `<${alias}.* (memory columns)>`);
}

/** Vector literals make plans unreadable: keep the first components. */
export function shortenVectors(text: string): string {
  return text.replace(/'\[([^\]]{60,})\]'/g, (_m, inner: string) => {
    const parts = inner.split(',');
    return `'[${parts.slice(0, 3).join(',')},… ${parts.length} dims]'`;
  });
}

export interface ExplainedPlan {
  title: string;
  sql: string;
  plan: string;
  executionMs: number;
}

/**
 * Explain the recorded SELECTs (with or without CTEs) and INSERTs, each after the settings that were in force when it
 * ran (set_config calls inside its transaction). Every EXPLAIN ANALYZE runs in a transaction
 * that is rolled back, so an INSERT explained here leaves nothing behind.
 */
export async function explainRecorded(ds: DataSource, title: string, recorded: RecordedQuery[]): Promise<ExplainedPlan[]> {
  const steps: { select: RecordedQuery; settings: RecordedQuery[] }[] = [];
  let settings: RecordedQuery[] = [];
  for (const q of recorded) {
    if (/^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)/i.test(q.sql)) settings = [];
    else if (/set_config\(/.test(q.sql)) settings.push(q);
    else if (/^\s*(SELECT|INSERT|WITH)\b/i.test(q.sql)) steps.push({ select: q, settings: [...settings] });
  }
  const out: ExplainedPlan[] = [];
  const runner: QueryRunner = ds.createQueryRunner();
  await runner.connect();
  try {
    for (const [i, step] of steps.entries()) {
      await runner.query('BEGIN');
      try {
        for (const s of step.settings) await runner.query(s.sql, s.parameters);
        const rows: { 'QUERY PLAN': string }[] = await runner.query(
          `EXPLAIN (ANALYZE, BUFFERS) ${step.select.sql}`,
          step.select.parameters,
        );
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        const ms = /Execution Time: ([\d.]+) ms/.exec(plan);
        out.push({
          title: steps.length > 1 ? `${title} (statement ${i + 1} of ${steps.length})` : title,
          sql: condenseColumns(shortenVectors([...step.settings.map((x) => x.sql), step.select.sql].join(';\n'))),
          plan: shortenVectors(plan),
          executionMs: ms ? Number(ms[1]) : NaN,
        });
      } finally {
        await runner.query('ROLLBACK');
      }
    }
  } finally {
    await runner.release();
  }
  return out;
}
