import type { ScoredRow } from './memories.repository';
import type { MemoryEntity } from './memory.entity';

/** Reciprocal rank fusion constant (the usual 60: ranks matter, not raw scores). */
const RRF_K = 60;
const RECENCY_HALF_LIFE_DAYS = 30;

export interface RankedMemory {
  memory: MemoryEntity;
  similarity: number;
  score: number;
}

/** Turn an ordinary query into an OR of its words for to_tsquery; null when nothing is searchable. */
export function toOrTsQuery(text: string, maxTerms = 32): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && w.length <= 64);
  const unique = [...new Set(words)].slice(0, maxTerms);
  return unique.length > 0 ? unique.join(' | ') : null;
}

export function recencyWeight(createdAt: Date, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - new Date(createdAt).getTime()) / 86_400_000);
  return Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
}

/**
 * Hybrid ranking: fuse the vector list and the full-text list by reciprocal rank, then
 * re-score by importance and recency, and multiply by the memory's trust score.
 * Both lists come from scoped SQL; this only orders what the caller may already see.
 */
export function fuseAndRescore(vector: ScoredRow[], text: ScoredRow[], now: Date): RankedMemory[] {
  const byId = new Map<string, { memory: MemoryEntity; distance: number; rrf: number }>();
  const add = (rows: ScoredRow[]) =>
    rows.forEach((row, rank) => {
      const entry = byId.get(row.memory.id) ?? { memory: row.memory, distance: row.distance, rrf: 0 };
      entry.rrf += 1 / (RRF_K + rank + 1);
      byId.set(row.memory.id, entry);
    });
  add(vector);
  add(text);
  const best = 2 / (RRF_K + 1);
  return [...byId.values()]
    .map(({ memory, distance, rrf }) => {
      const similarity = 1 - distance;
      const relevance = rrf / best;
      const boost = 0.7 + 0.2 * memory.importance + 0.1 * recencyWeight(memory.createdAt, now);
      return { memory, similarity, score: relevance * boost * memory.trustScore };
    })
    .sort((a, b) => b.score - a.score || b.similarity - a.similarity || (a.memory.id < b.memory.id ? -1 : 1));
}
