import type { IngestResponseWire } from '../contract/wire-types';
import { cosine } from '../embeddings/vector-math';
import type { ScoredRow } from '../retrieval/vector-search';

/** A visible memory the model may decide about: its id, text and similarity to the new fact. */
export interface Candidate {
  id: string;
  content: string;
  similarity: number;
}

/**
 * What ingest does with one accepted fact. `add` stores it as a new row; the mutations name
 * the candidate they apply to (always one the writer could see); `skip` stores nothing.
 */
export type IngestDecision =
  | { kind: 'add' }
  | { kind: 'skip'; reason: 'duplicate' | 'noop' }
  | { kind: 'update'; targetId: string; content?: string; confidence: number }
  | { kind: 'supersede'; targetId: string; confidence: number }
  | { kind: 'delete'; targetId: string; confidence: number };

/** The decisions that change an existing row and may record a contradiction lesson. */
export type ContradictingDecision = Extract<IngestDecision, { kind: 'supersede' | 'delete' }>;

/** Counts and ids of an ingest response, built up decision by decision. */
export type IngestTally = Omit<IngestResponseWire, 'episode_id' | 'facts_extracted'>;

export const emptyTally = (): IngestTally => ({
  memories_stored: 0,
  memories_updated: 0,
  memories_deleted: 0,
  memories_skipped: 0,
  stored_memory_ids: [],
  updated_memory_ids: [],
});

/**
 * A fact is a duplicate when a stored memory the writer can see, or a fact already accepted
 * from the same input, is at least `threshold` similar.
 */
export function isDuplicate(
  nearest: ScoredRow | undefined,
  earlier: readonly (readonly number[])[],
  vector: readonly number[],
  threshold: number,
): boolean {
  if (nearest !== undefined && 1 - nearest.distance >= threshold) return true;
  return earlier.some((other) => cosine(other, vector) >= threshold);
}

/** The neighbours close enough to show the model when it decides. */
export function relevantCandidates(neighbours: readonly ScoredRow[], threshold: number): Candidate[] {
  return neighbours
    .filter((c) => 1 - c.distance >= threshold)
    .map((c) => ({ id: c.memory.id, content: c.memory.content, similarity: 1 - c.distance }));
}

/** Whether the decision records a contradiction lesson (CONTRACT section 6). */
export function contradicts(decision: IngestDecision, minConfidence: number): decision is ContradictingDecision {
  return (decision.kind === 'supersede' || decision.kind === 'delete') && decision.confidence >= minConfidence;
}
