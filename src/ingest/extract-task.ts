import { cpuTask, type CpuTask } from '../workers/cpu-tasks';
import { extractFacts, type ExtractedFact } from './fact-extractor';

/** Rule-based extraction of a long conversation as a worker task, and what the worker runs for it. */
export const extractTask = (conversation: string): CpuTask<ExtractedFact[]> => cpuTask('extract', conversation);
export const extractHandler = (conversation: unknown): ExtractedFact[] => extractFacts(conversation as string);
