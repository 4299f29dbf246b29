import type { JsonLogger } from '../common/logging/json-logger';

export type ProcessFaultKind = 'unhandled_rejection' | 'uncaught_exception';

/**
 * The last net under request handling. Every promise in Atrium has an owner and every request
 * error goes through the exception filter, so reaching these handlers is a bug; but a bug in
 * one request must not take down the process and every other request with it (Node's default
 * for both events is to exit). The fault is logged with its stack and counted
 * (`atrium_process_faults_total`), and the service keeps serving.
 *
 * Returns a function that removes the handlers (tests install and remove them).
 */
export function installProcessFaultPolicy(logger: JsonLogger, onFault: (kind: ProcessFaultKind) => void = () => undefined): () => void {
  const report = (kind: ProcessFaultKind, reason: unknown): void => {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    logger.error({ msg: 'process fault; still serving', kind, error: error.message }, error.stack ?? '', 'ProcessFaults');
    try {
      onFault(kind);
    } catch {
      // counting must never turn one fault into two
    }
  };
  const onRejection = (reason: unknown): void => report('unhandled_rejection', reason);
  const onException = (error: Error): void => report('uncaught_exception', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
