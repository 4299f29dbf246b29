import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import type { CpuReply, CpuRequest, CpuTask } from './cpu-tasks';

/** A task that took longer than its budget (or killed its worker): its input is refused, never let through. */
export class WorkerBudgetExceededError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the worker budget of ${budgetMs} ms per task was exceeded`);
    this.name = 'WorkerBudgetExceededError';
  }
}

export interface WorkerPoolOptions {
  /** Worker threads at most; started on the first task, so an app that never offloads starts none. */
  workers: number;
  /** Time one task may take on its worker; past it the worker is terminated and replaced. */
  budgetMs: number;
  /**
   * Niceness each worker thread gives itself (Linux schedules threads one by one; 0 = as the
   * event loop). Positive: when the CPU is short, the event loop runs first.
   */
  nice?: number;
}

/** What a worker thread is started with (src/app/cpu.worker.ts reads it). */
export interface CpuWorkerData {
  nice: number;
}

interface Pending {
  id: number;
  task: CpuTask<unknown>;
  budgetMs: number;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Set when the pool terminated the worker itself (budget, close): its exit is expected. */
  retired: boolean;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
}

/** Heap of one worker: a 100k-character input needs a few tens of MB at most. */
const WORKER_HEAP_MB = 128;

/**
 * Worker threads that run CPU work (src/app/cpu.worker.ts: the write gate, fact extraction,
 * in-process embeddings of long texts) so the event loop never waits for it. Each worker takes one task at a time; a task waits in the queue for a ready worker, and
 * its budget starts when a worker takes it (a worker still loading the rules does not count). A
 * task over budget cannot be interrupted inside synchronous code, so its worker is terminated, a
 * fresh one started, and the task rejected with WorkerBudgetExceededError.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs a task on a worker; `budgetMs` overrides the pool's budget for this task. */
  run<R>(task: CpuTask<R>, budgetMs = this.options.budgetMs): Promise<R> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, budgetMs, resolve: resolve as (result: unknown) => void, reject });
      while (this.slots.length < this.options.workers) this.slots.push(this.spawn());
      this.dispatch();
    });
  }

  /** Workers started and not retired (for tests and shutdown). */
  get size(): number {
    return this.slots.length;
  }

  /** Rejects queued tasks, terminates every worker, and resolves when all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the worker pool is closed'));
    const exits = this.slots.splice(0).map((slot) => {
      slot.retired = true;
      if (slot.timer) clearTimeout(slot.timer);
      slot.busy?.reject(new Error('the worker pool is closed'));
      return slot.worker.terminate();
    });
    await Promise.all(exits);
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker({ nice: this.options.nice ?? 0 }), ready: false, retired: false, busy: null, timer: null };
    slot.worker.unref();
    slot.worker.on('message', (message: CpuReply | { ready: true }) => this.onMessage(slot, message));
    slot.worker.on('error', (error) => this.onFailure(slot, error));
    slot.worker.on('exit', (code) => this.onFailure(slot, new Error(`cpu worker exited with code ${code}`)));
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy !== null || this.queue.length === 0) continue;
      const pending = this.queue.shift() as Pending;
      slot.busy = pending;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.overBudget(slot), pending.budgetMs);
      const request: CpuRequest = { id: pending.id, kind: pending.task.kind, input: pending.task.input };
      slot.worker.postMessage(request);
    }
  }

  private onMessage(slot: Slot, message: CpuReply | { ready: true }): void {
    if ('ready' in message) {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const pending = slot.busy;
    if (pending === null || pending.id !== message.id) return;
    this.release(slot);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(`cpu worker failed: ${message.message}`));
    this.dispatch();
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    slot.worker.unref();
  }

  private overBudget(slot: Slot): void {
    const pending = slot.busy;
    this.retire(slot);
    pending?.reject(new WorkerBudgetExceededError(pending.budgetMs));
  }

  /** A worker that crashed or exited by itself: its task is refused like one over budget. */
  private onFailure(slot: Slot, error: Error): void {
    if (slot.retired) return;
    const pending = slot.busy;
    const wasReady = slot.ready;
    this.retire(slot);
    pending?.reject(new WorkerBudgetExceededError(pending.budgetMs));
    // A worker that dies before it is ready would die again: fail the queue instead of looping.
    if (!wasReady) for (const queued of this.queue.splice(0)) queued.reject(error);
  }

  /** Terminates a worker and, while tasks wait and the pool is open, starts its replacement. */
  private retire(slot: Slot): void {
    slot.retired = true;
    this.release(slot);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    void slot.worker.terminate();
    if (!this.closed && this.queue.length > 0) this.slots.push(this.spawn());
  }
}

/**
 * The built service runs the compiled worker next to this file. Under Jest the sources are
 * TypeScript transformed in memory, which a worker thread does not inherit: it gets a bootstrap
 * that compiles each TypeScript file with swc (a dev dependency) as it is required.
 */
function startWorker(data: CpuWorkerData): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  // The worker's entry is in src/app, the top layer: its handlers import the features, which
  // import this pool.
  const compiled = join(__dirname, '..', 'app', 'cpu.worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { resourceLimits, workerData: data });
  const workerData = { ...data, entry: join(__dirname, '..', 'app', 'cpu.worker.ts'), swc: require.resolve('@swc/core') };
  return new Worker(TYPESCRIPT_BOOTSTRAP, { eval: true, workerData, resourceLimits });
}

const TYPESCRIPT_BOOTSTRAP = `
const { readFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const swc = require(workerData.swc);
// .ts first, so './gate-model' is the module and not gate-model.json beside it.
const others = Object.entries(require.extensions);
for (const [extension] of others) delete require.extensions[extension];
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
for (const [extension, load] of others) require.extensions[extension] = load;
require(workerData.entry);
`;
