import type { MemoryEntity } from '../database/entities/memory.entity';
import type { ScoredRow } from './vector-search';

/**
 * How /search merges its two candidate lists (both already visibility-scoped in SQL).
 *
 * A score blend, not reciprocal rank fusion: each side is scaled to [0, 1] over the
 * candidates of this query (BM25 divided by the best BM25; cosine similarity min-max scaled
 * over the union), and relevance = 0.8 x lexical + 0.2 x vector. A candidate the lexical list
 * did not return counts 0 on that side. On the LoCoMo dev conversations the blend beat plain
 * RRF, other weights and either side alone (docs/retrieval.md, "Fusion", has every figure).
 * The vector side is weaker than BM25 here, so an equal vote (plain RRF) pulls good lexical
 * hits down; scores keep how far ahead a strong match is.
 */
export const LEXICAL_WEIGHT = 0.8;

export interface FusedCandidate {
  memory: MemoryEntity;
  /** 1 - cosine distance. */
  similarity: number;
  /** Relevance in [0, 1]; 1 for the best candidate of this query. */
  relevance: number;
}

export function fuseByScore(vector: readonly ScoredRow[], text: readonly ScoredRow[], lexicalWeight = LEXICAL_WEIGHT): FusedCandidate[] {
  const byId = new Map<string, { memory: MemoryEntity; similarity: number; lexical: number }>();
  for (const row of [...vector, ...text]) {
    if (!byId.has(row.memory.id)) byId.set(row.memory.id, { memory: row.memory, similarity: 1 - row.distance, lexical: 0 });
  }
  const bestText = Math.max(0, ...text.map((r) => r.textRank ?? 0));
  if (bestText > 0) for (const row of text) (byId.get(row.memory.id) as { lexical: number }).lexical = (row.textRank ?? 0) / bestText;
  const entries = [...byId.values()];
  const low = Math.min(...entries.map((e) => e.similarity));
  const span = Math.max(...entries.map((e) => e.similarity)) - low;
  const scored = entries.map((e) => ({
    memory: e.memory,
    similarity: e.similarity,
    raw: lexicalWeight * e.lexical + (1 - lexicalWeight) * (span > 0 ? (e.similarity - low) / span : 1),
  }));
  const best = Math.max(...scored.map((s) => s.raw));
  return scored.map((s) => ({ memory: s.memory, similarity: s.similarity, relevance: best > 0 ? s.raw / best : 0 }));
}
