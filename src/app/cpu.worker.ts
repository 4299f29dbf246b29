/**
 * A CPU worker thread (src/workers/worker-pool.ts): runs the write gate, the rule-based fact
 * extraction and in-process embeddings off the event loop. Loads the rules and the classifier
 * once, says it is ready, then answers one task at a time. It lives in src/app because its
 * handlers come from the features, which themselves use the pool.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

import { embedHandler } from '../embeddings/offloading-embedding-provider';
import { extractHandler } from '../ingest/extract-task';
import { gateHandlers, warmUpGate } from '../lessons/classifier/gate-tasks';
import type { CpuReply, CpuRequest, CpuTaskKind } from '../workers/cpu-tasks';
import type { CpuWorkerData } from '../workers/worker-pool';

const port = parentPort;
if (!port) throw new Error('cpu.worker must run in a worker thread');

const HANDLERS: Record<CpuTaskKind, (input: unknown) => unknown> = {
  assess: gateHandlers.assess,
  'assess-many': gateHandlers.assessMany,
  judge: gateHandlers.judge,
  extract: extractHandler,
  embed: embedHandler,
};

// Below the event loop when the CPU is short: WRITE_GATE_WORKER_NICE steps nicer than the thread
// it started as (at most 19). On Linux a thread's niceness is its own, and setPriority with no pid
// sets the calling thread's; raising it needs no privilege. Where the system refuses, the worker
// runs at the process's priority.
const { nice } = (workerData ?? {}) as Partial<CpuWorkerData>;
if (nice) {
  try {
    setPriority(Math.min(19, getPriority() + nice));
  } catch {
    // not fatal: the pool still keeps the work off the event loop
  }
}

// Compile the rules and warm their long-input paths before the first budgeted task.
warmUpGate();

port.on('message', (request: CpuRequest) => {
  const reply = (result: CpuReply): void => port.postMessage(result);
  new Promise((resolve) => resolve(HANDLERS[request.kind](request.input))).then(
    (result) => reply({ id: request.id, ok: true, result }),
    (error: unknown) => reply({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage({ ready: true });
