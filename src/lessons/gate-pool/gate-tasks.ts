import type { InputAssessment } from '../classifier/assess-input';
import type { FactJudgement } from '../classifier/write-gate-model';

/** The write gate's CPU work, as sent to a worker: the whole input, or extracted facts one by one. */
export type GateTask = { kind: 'assess'; text: string } | { kind: 'judge'; texts: string[] };

export type GateResult<T extends GateTask> = T extends { kind: 'assess' } ? InputAssessment : FactJudgement[];

export interface GateRequest {
  id: number;
  task: GateTask;
}

export type GateReply = { id: number; ok: true; result: InputAssessment | FactJudgement[] } | { id: number; ok: false; message: string };
