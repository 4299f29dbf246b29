import type { MemoryEntity } from '../entities/memory.entity';
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from './memory-row';

/** A lesson the query came close to (the lesson check's input). */
export interface LessonHit {
  id: string;
  lesson_type: string;
  pattern: string;
  severity: string;
  similarity: number;
  /** The agent (and its workspace) whose write or report produced the lesson; null for the user's own. */
  agent_id: string | null;
  workspace_id: string | null;
  /** The gate's rule ids (injection lessons), else null. */
  rules: string[] | null;
}

/** The lesson check inside a search statement: the user's active lessons within `maxDistance`, closest `limit`. */
export interface LessonGate {
  maxDistance: number;
  limit: number;
}

export interface SearchStatementResult {
  /** True when the statement re-checked an API key and found it revoked: it returned nothing. */
  keyRevoked: boolean;
  /** Null when the statement had no lesson gate. */
  lessons: LessonHit[] | null;
  /** True when a critical lesson matched: the statement returned no memory. */
  blocked: boolean;
  rows: { memory: MemoryEntity; distance: number }[];
  /** Candidate rows before the top-k cut (the bounded count of the exact plan). */
  candidateRows: number;
}

/**
 * One statement for a search (named parameters, rendered once per shape by MemoryAccess):
 * - `lesson_hits`: the user's active lessons near the query (user-scoped: the same
 *   `vis_userId` the visibility predicate binds), when `gated`;
 * - `top`: the k nearest of `candidates` (a scoped builder's SQL, selecting `id` and
 *   `distance`), with the candidate count, and nothing at all when a lesson hit is
 *   `critical` (fail closed: the LIMIT of `top` becomes 0, so PostgreSQL never runs the scan);
 * - the answer: one row per hit with the lessons as JSON in every row, or a single row with
 *   NULL memory columns when there is no hit, so the lessons always come back.
 * - `live_key`, when `keyChecked`: whether the API key that authenticated the request
 *   (`liveKeyId`, taken from the instance's memory by the guard) is still unrevoked and
 *   unexpired (the guard checked the expiry it remembers; the row decides too); when it
 *   is not, `top` is empty and `key_live` comes back false, so a revocation made on any
 *   instance applies to the very next search here without a separate lookup.
 * Ordering by `distance + 0`: see VectorSearch.indexedNearest (the relaxed-order HNSW
 * candidates must really be sorted); the exact plan sorts either way.
 */
export function searchStatementSql(candidates: string, gated: boolean, candidateLimit: boolean, keyChecked = false): string {
  const limited = candidateLimit ? `${candidates} LIMIT :candidateLimit` : candidates;
  const liveKey = keyChecked
    ? `live_key AS (
    SELECT EXISTS (
      SELECT 1 FROM api_keys
       WHERE id = CAST(:liveKeyId AS uuid) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS ok),
  `
    : '';
  const lessons = gated
    ? `lesson_hits AS (
    SELECT l.id, l.lesson_type, l.pattern, l.severity, 1 - (l.embedding <=> CAST(:q AS vector)) AS similarity,
           l.metadata->>'agentId' AS agent_id, l.metadata->>'workspaceId' AS workspace_id,
           CASE WHEN jsonb_typeof(l.metadata->'rules') = 'array' THEN l.metadata->'rules' END AS rules
      FROM lessons l
     WHERE l.user_id = :vis_userId AND l.active AND (l.embedding <=> CAST(:q AS vector)) <= :lessonMaxDistance
     ORDER BY l.embedding <=> CAST(:q AS vector), l.id
     LIMIT :lessonLimit),
  `
    : '';
  // The gates close the LIMIT rather than filter rows: a LIMIT of 0 never pulls from the scan
  // below it, and an open one costs nothing per row, where a WHERE on these one-time
  // conditions added a Result node that every candidate row passed through (measured in
  // docs/benchmarks.md, "API-key authentication").
  const conditions = [
    ...(gated ? [`NOT EXISTS (SELECT 1 FROM lesson_hits WHERE severity = 'critical')`] : []),
    ...(keyChecked ? ['(SELECT ok FROM live_key)'] : []),
  ];
  const topLimit = conditions.length > 0 ? `CASE WHEN ${conditions.join(' AND ')} THEN :k ELSE 0 END` : ':k';
  const keyColumn = keyChecked ? '(SELECT ok FROM live_key)' : 'NULL::boolean';
  const lessonColumn = gated ? `(SELECT COALESCE(json_agg(h ORDER BY h.similarity DESC, h.id), '[]') FROM lesson_hits h)` : 'NULL::json';
  return `WITH ${liveKey}${lessons}top AS (
    SELECT c.id, c.distance, count(*) OVER () AS candidate_rows
      FROM (${limited}) c
     ORDER BY c.distance + 0, c.id
     LIMIT ${topLimit})
SELECT ${keyColumn} AS key_live, ${lessonColumn} AS lessons, r.*
  FROM (SELECT 1) one
  LEFT JOIN (
    SELECT ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')}, top.distance AS distance, top.candidate_rows AS candidate_rows
      FROM top JOIN memories m ON m.id = top.id AND m.user_id = :vis_userId) r ON true
 ORDER BY r.distance, r.id`;
}

/**
 * The full-text side of a hybrid search as one statement: `bm25` (bm25-statement.ts over two scoped
 * builders, selecting `id` and `text_rank`, best first, at most k) joined back to the rows,
 * with each row's vector distance to the query. Rendered once per shape by MemoryAccess.
 * `visibleIds`: a scoped builder's SQL selecting `id`, when `bm25` chose its rows from
 * something other than the scoped builders (the postings): only the rows it keeps are returned.
 * `extra`: more columns of `bm25` passed through as they are.
 */
export function textStatementSql(bm25: string, visibleIds?: string, extra: readonly string[] = []): string {
  const visible = visibleIds === undefined ? '' : ` JOIN (${visibleIds}) v ON v.id = c.id`;
  const passed = extra.map((column) => `, c.${column} AS ${column}`).join('');
  return `SELECT ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')}, c.text_rank AS text_rank, c.bm25_n AS bm25_n, c.bm25_avgdl AS bm25_avgdl${passed}, m.embedding <=> CAST(:q AS vector) AS distance
  FROM (${bm25}) c${visible} JOIN memories m ON m.id = c.id AND m.user_id = :vis_userId
 ORDER BY c.text_rank DESC, m.id`;
}

export interface TextStatementRow {
  memory: MemoryEntity;
  distance: number;
  textRank: number;
}

/** The text statement's rows, and the population statistics (N, avgdl) it ranked with (null without rows). */
export interface TextStatementResult {
  rows: TextStatementRow[];
  population: { n: number; avgdl: number } | null;
}

export function toTextResult(rows: (Row & { text_rank: number; bm25_n: number | null; bm25_avgdl: number | null })[]): TextStatementResult {
  const first = rows[0];
  return {
    rows: rows.map((r) => ({ memory: toMemory(r), distance: Number(r.distance), textRank: Number(r.text_rank) })),
    population:
      first && first.bm25_n !== null && first.bm25_avgdl !== null ? { n: Number(first.bm25_n), avgdl: Number(first.bm25_avgdl) } : null,
  };
}

/** What rankedBm25Statement returns besides the rows, on each of them (passed through textStatementSql). */
export const RANKED_TEXT_COLUMNS = ['bm25_lexemes'] as const;

export interface RankedTextResult extends TextStatementResult {
  /** The query's lexemes that some visible row contains (each was scored); 0 when no row came back. */
  lexemes: number;
}

export function toRankedTextResult(
  rows: (Parameters<typeof toTextResult>[0][number] & { bm25_lexemes: number | string })[],
): RankedTextResult {
  return { ...toTextResult(rows), lexemes: rows.length > 0 ? Number(rows[0].bm25_lexemes) : 0 };
}

type Row = { key_live: boolean | null; lessons: LessonHit[] | null; distance: number | null; candidate_rows: string | null } & MemoryRow;

export function toSearchResult(rows: Row[]): SearchStatementResult {
  const lessons = rows[0]?.lessons ?? null;
  const hits = lessons?.map((l) => ({ ...l, similarity: Number(l.similarity) })) ?? null;
  const found = rows.filter((r) => r.id !== null);
  return {
    keyRevoked: rows[0]?.key_live === false,
    lessons: hits,
    blocked: hits?.some((l) => l.severity === 'critical') ?? false,
    rows: found.map((r) => ({ memory: toMemory(r), distance: Number(r.distance) })),
    candidateRows: found.length > 0 ? Number(found[0].candidate_rows) : 0,
  };
}
