import { MemoryEntity } from '../../memories/memory.entity';

/** A lesson the query came close to (the lesson check's input). */
export interface LessonHit {
  id: string;
  lesson_type: string;
  pattern: string;
  severity: string;
  similarity: number;
}

/** The lesson check inside a search statement: the user's active lessons within `maxDistance`, closest `limit`. */
export interface LessonGate {
  maxDistance: number;
  limit: number;
}

export interface SearchStatementResult {
  /** Null when the statement had no lesson gate. */
  lessons: LessonHit[] | null;
  /** True when a critical lesson matched: the statement returned no memory. */
  blocked: boolean;
  rows: { memory: MemoryEntity; distance: number }[];
  /** Candidate rows before the top-k cut (the bounded count of the exact plan). */
  candidateRows: number;
}

/** The memory columns a search returns (no embedding, no deletion bookkeeping). */
const MEMORY_COLUMNS = [
  'id',
  'user_id',
  'workspace_id',
  'agent_id',
  'visibility',
  'content',
  'memory_type',
  'importance',
  'source_site',
  'source_url',
  'episode_id',
  'namespace',
  'status',
  'metadata',
  'trust_score',
  'created_at',
  'updated_at',
] as const;

/**
 * One statement for a search (named parameters, rendered once per shape by MemoryAccess):
 * - `lesson_hits`: the user's active lessons near the query (user-scoped: the same
 *   `vis_userId` the visibility predicate binds), when `gated`;
 * - `top`: the k nearest of `candidates` (a scoped builder's SQL, selecting `id` and
 *   `distance`), with the candidate count, and nothing at all when a lesson hit is
 *   `critical` (fail closed: PostgreSQL skips the scan on that one-time condition);
 * - the answer: one row per hit with the lessons as JSON in every row, or a single row with
 *   NULL memory columns when there is no hit, so the lessons always come back.
 * Ordering by `distance + 0`: see VectorSearch.indexedNearest (the relaxed-order HNSW
 * candidates must really be sorted); the exact plan sorts either way.
 */
export function searchStatementSql(candidates: string, gated: boolean, candidateLimit: boolean): string {
  const limited = candidateLimit ? `${candidates} LIMIT :candidateLimit` : candidates;
  const lessons = gated
    ? `lesson_hits AS (
    SELECT l.id, l.lesson_type, l.pattern, l.severity, 1 - (l.embedding <=> CAST(:q AS vector)) AS similarity
      FROM lessons l
     WHERE l.user_id = :vis_userId AND l.active AND (l.embedding <=> CAST(:q AS vector)) <= :lessonMaxDistance
     ORDER BY l.embedding <=> CAST(:q AS vector), l.id
     LIMIT :lessonLimit),
  `
    : '';
  const open = gated ? `WHERE NOT EXISTS (SELECT 1 FROM lesson_hits WHERE severity = 'critical')` : '';
  const lessonColumn = gated ? `(SELECT COALESCE(json_agg(h ORDER BY h.similarity DESC, h.id), '[]') FROM lesson_hits h)` : 'NULL::json';
  return `WITH ${lessons}top AS (
    SELECT c.id, c.distance, count(*) OVER () AS candidate_rows
      FROM (${limited}) c
     ${open}
     ORDER BY c.distance + 0, c.id
     LIMIT :k)
SELECT ${lessonColumn} AS lessons, r.*
  FROM (SELECT 1) one
  LEFT JOIN (
    SELECT ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')}, top.distance AS distance, top.candidate_rows AS candidate_rows
      FROM top JOIN memories m ON m.id = top.id AND m.user_id = :vis_userId) r ON true
 ORDER BY r.distance, r.id`;
}

type Row = { lessons: LessonHit[] | null; distance: number | null; candidate_rows: string | null } & Record<(typeof MEMORY_COLUMNS)[number], unknown>;

export function toSearchResult(rows: Row[]): SearchStatementResult {
  const lessons = rows[0]?.lessons ?? null;
  const hits = lessons?.map((l) => ({ ...l, similarity: Number(l.similarity) })) ?? null;
  const found = rows.filter((r) => r.id !== null);
  return {
    lessons: hits,
    blocked: hits?.some((l) => l.severity === 'critical') ?? false,
    rows: found.map((r) => ({ memory: toMemory(r), distance: Number(r.distance) })),
    candidateRows: found.length > 0 ? Number(found[0].candidate_rows) : 0,
  };
}

function toMemory(r: Row): MemoryEntity {
  const m = new MemoryEntity();
  m.id = r.id as string;
  m.userId = r.user_id as string;
  m.workspaceId = r.workspace_id as string | null;
  m.agentId = r.agent_id as string | null;
  m.visibility = r.visibility as MemoryEntity['visibility'];
  m.content = r.content as string;
  m.memoryType = r.memory_type as MemoryEntity['memoryType'];
  m.importance = Number(r.importance);
  m.sourceSite = r.source_site as string;
  m.sourceUrl = r.source_url as string | null;
  m.episodeId = r.episode_id as string | null;
  m.namespace = r.namespace as string | null;
  m.status = r.status as MemoryEntity['status'];
  m.metadata = r.metadata as Record<string, unknown>;
  m.trustScore = Number(r.trust_score);
  m.createdAt = r.created_at as Date;
  m.updatedAt = r.updated_at as Date;
  return m;
}
