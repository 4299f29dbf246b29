/**
 * A unit of CPU work for a worker thread: a kind the worker has a handler for (src/app/cpu.worker.ts)
 * and its input, which must survive the structured clone. `R` is the handler's result type, carried
 * for the caller only: each feature builds its own tasks with `cpuTask` beside the function the
 * handler runs (the write gate, fact extraction, in-process embeddings), so this folder sits below
 * all of them and imports none.
 */
/**
 * Work on texts up to this long runs on the event loop: the linear gate, the extractor and the
 * in-process embedders take a millisecond or two on them, about what a round trip to a worker
 * costs. Longer ones go to the pool.
 */
export const INLINE_MAX_CHARS = 2_000;

export interface CpuTask<R> {
  readonly kind: CpuTaskKind;
  readonly input: unknown;
  /** How many inputs the task holds (a batch): its budget is that many times one input's. */
  readonly inputs?: number;
  /** Never set: it only carries the result type. */
  readonly result?: R;
}

/** Every kind a worker handles; the handler table in src/app/cpu.worker.ts is a Record over it. */
export const CPU_TASK_KINDS = ['assess', 'assess-many', 'judge', 'extract', 'embed'] as const;
export type CpuTaskKind = (typeof CPU_TASK_KINDS)[number];

export function cpuTask<R>(kind: CpuTaskKind, input: unknown, inputs?: number): CpuTask<R> {
  return inputs === undefined ? { kind, input } : { kind, input, inputs };
}

export interface CpuRequest {
  id: number;
  kind: CpuTaskKind;
  input: unknown;
}

export type CpuReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };
