import type { LoggerService } from '@nestjs/common';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * One JSON object per line on stdout (errors on stderr), so log shippers need no parsing rules.
 * Nest's own framework messages go through here too.
 */
export class JsonLogger implements LoggerService {
  constructor(private readonly level: LogLevelName = 'info') {}

  private write(level: Exclude<LogLevelName, 'silent'>, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, context, ...extra };
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) Object.assign(entry, message);
    else entry.msg = message instanceof Error ? message.message : String(message);
    const line = JSON.stringify(entry) + '\n';
    if (level === 'error') process.stderr.write(line);
    else process.stdout.write(line);
  }

  /** Structured entry with arbitrary fields (used by the request logger). */
  event(level: Exclude<LogLevelName, 'silent'>, fields: Record<string, unknown>): void {
    this.write(level, fields);
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, typeof context === 'string' ? context : undefined);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const ctx = context ?? (stackOrContext && !stackOrContext.includes('\n') ? stackOrContext : undefined);
    const stack = stackOrContext && stackOrContext.includes('\n') ? stackOrContext : undefined;
    this.write('error', message, ctx, stack ? { stack } : undefined);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, typeof context === 'string' ? context : undefined);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, typeof context === 'string' ? context : undefined);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', message, typeof context === 'string' ? context : undefined);
  }
}
