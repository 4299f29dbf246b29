import type { MemoryEntity } from '../database/entities/memory.entity';
import { fuseByScore } from './fusion';
import { inWindow, memoryTime, questionWindow } from './temporal';
import type { ScoredRow } from './vector-search';

const RECENCY_HALF_LIFE_DAYS = 30;
/**
 * Bonus for candidates dated inside the time a question names (temporal.ts), chosen on the
 * LoCoMo dev conversations (docs/retrieval.md, "Temporal questions"): it only re-orders
 * candidates, so it helps when the right turn was fetched.
 */
const TEMPORAL_BONUS = 0.3;

export interface RankedMemory {
  memory: MemoryEntity;
  similarity: number;
  score: number;
}

/** The searchable words of an ordinary query (for to_tsquery / to_tsvector); empty when none. */
export function searchableWords(text: string, maxTerms = 32): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && w.length <= 64);
  return [...new Set(words)].slice(0, maxTerms);
}

export function recencyWeight(createdAt: Date, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - new Date(createdAt).getTime()) / 86_400_000);
  return Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
}

/**
 * Hybrid ranking: blend the vector list and the BM25 list (fusion.ts), then re-score by
 * importance, recency and the time the query names, and multiply by the memory's trust score.
 * Both lists come from scoped SQL; this only orders what the caller may already see.
 */
export function fuseAndRescore(vector: ScoredRow[], text: ScoredRow[], now: Date, query = ''): RankedMemory[] {
  const window = questionWindow(query);
  return fuseByScore(vector, text)
    .map(({ memory, similarity, relevance }) => {
      const timely = window !== null && inWindow(window, memoryTime(memory.content, memory.createdAt));
      const boost = (0.7 + 0.2 * memory.importance + 0.1 * recencyWeight(memory.createdAt, now)) * (timely ? 1 + TEMPORAL_BONUS : 1);
      return { memory, similarity, score: relevance * boost * memory.trustScore };
    })
    .sort((a, b) => b.score - a.score || b.similarity - a.similarity || (a.memory.id < b.memory.id ? -1 : 1));
}
