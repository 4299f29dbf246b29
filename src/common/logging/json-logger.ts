import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * At most this many bytes of log lines wait in memory for a slow stdout (a blocked pipe, a
 * stalled log shipper); lines beyond are dropped and counted on stderr, instead of the buffer
 * growing with every request until the process runs out of memory.
 */
export const STDOUT_BUFFER_LIMIT_BYTES = 16 * 2 ** 20;
/** How often a run of dropped lines is reported (the first drop is reported at once). */
const DROP_REPORT_INTERVAL_MS = 60_000;

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type EntryLevel = Exclude<LogLevelName, 'silent'>;

/**
 * One JSON object per line, `{"level","time","context",...fields,"msg"}`: info, debug and
 * warn on stdout, errors on stderr, so log shippers need no parsing rules. Nest's own
 * framework messages go through here too.
 *
 * Written with pino. stdout (every request's line) is asynchronous: a line is handed to a
 * write in the background, and lines that arrive while one is in flight are gathered and
 * written together, instead of one blocking write system call per request on the response path (a synchronous write per request cost the service
 * CPU per request: docs/benchmarks.md, round two); pino flushes what is left synchronously
 * when the process exits. Errors stay synchronous on process.stderr, so the line is out before anything can
 * take the process down.
 */
export class JsonLogger implements LoggerService {
  private readonly out: Logger<never>;
  private readonly err: Logger<never>;

  constructor(
    private readonly level: LogLevelName = 'info',
    stdout: DestinationStream = asyncStdout(),
  ) {
    const options = {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
    };
    this.out = pino(options, stdout);
    this.err = pino(options, process.stderr);
  }

  private write(level: EntryLevel, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    const logger = level === 'error' ? this.err : this.out;
    if (!logger.isLevelEnabled(level)) return;
    const entry: Record<string, unknown> = { context, ...extra };
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      Object.assign(entry, message);
      logger[level](entry);
    } else {
      logger[level](entry, message instanceof Error ? message.message : String(message));
    }
  }

  /** Structured entry with arbitrary fields (used by the request logger). */
  event(level: EntryLevel, fields: Record<string, unknown>): void {
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

/** One asynchronous stdout per process (pino flushes it synchronously on exit). */
let sharedStdout: DestinationStream | undefined;
function asyncStdout(): DestinationStream {
  sharedStdout ??= boundedAsyncDestination(1, STDOUT_BUFFER_LIMIT_BYTES, reportDroppedLines);
  return sharedStdout;
}

/**
 * An asynchronous destination on `fd` that holds at most `maxBytes` of unwritten lines;
 * `onDrop(n)` hears of each line dropped beyond that (n = lines dropped so far).
 */
export function boundedAsyncDestination(
  fd: number,
  maxBytes: number,
  onDrop: (dropped: number) => void,
): DestinationStream & NodeJS.EventEmitter {
  const destination = pino.destination({ fd, sync: false, maxLength: maxBytes });
  let dropped = 0;
  destination.on('drop', () => onDrop(++dropped));
  return destination;
}

let droppedLines = 0;
let reportedLines = 0;
let dropReport: NodeJS.Timeout | null = null;
/** A line on stderr at the first drop of a run, then at most one a minute while drops go on. */
function reportDroppedLines(dropped: number): void {
  droppedLines = dropped;
  if (dropReport) return;
  const report = () => {
    const fields = {
      level: 'warn',
      time: new Date().toISOString(),
      context: 'Logger',
      msg: 'stdout is not keeping up: log lines dropped',
      dropped: droppedLines - reportedLines,
    };
    process.stderr.write(`${JSON.stringify(fields)}\n`);
    reportedLines = droppedLines;
  };
  report();
  dropReport = setTimeout(() => {
    dropReport = null;
    if (droppedLines > reportedLines) report();
  }, DROP_REPORT_INTERVAL_MS);
  dropReport.unref();
}
