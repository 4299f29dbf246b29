import { cpuTask, type CpuTask } from '../../workers/cpu-tasks';
import { assessInput, type InputAssessment, type InputContext } from './assess-input';
import { judgeFacts, shippedModel, type FactBasis } from './write-gate-model';

/** The write gate's CPU work as worker tasks, and what the worker runs for each (src/app/cpu.worker.ts). */
export const gateTasks = {
  assess: (text: string): CpuTask<InputAssessment> => cpuTask('assess', text),
  /** Several inputs in one task (an import batch's short texts): one round trip, each assessed as `assess` would. */
  assessMany: (texts: readonly string[]): CpuTask<InputAssessment[]> => cpuTask('assess-many', [...texts], texts.length),
  judge: (facts: readonly string[], input: InputContext): CpuTask<FactBasis[]> => cpuTask('judge', { facts: [...facts], input }),
};

export const gateHandlers = {
  assess: (text: unknown): InputAssessment => assessInput(text as string, shippedModel()),
  assessMany: (texts: unknown): InputAssessment[] => (texts as string[]).map((text) => assessInput(text, shippedModel())),
  judge: (task: unknown): FactBasis[] => {
    const { facts, input } = task as { facts: string[]; input: InputContext };
    return judgeFacts(facts, input, shippedModel());
  },
};
