import { assertNever } from '../../common/errors/domain-error';
import type { MemoryScope } from '../../common/scope/memory-scope';
import { bm25Parameters, type Bm25Population } from './bm25-statement';
import type { LessonGate } from './search-statement';
import { CURRENT, scopeShapeKey, type AccessPurpose, type ReadTime } from './visibility';

/**
 * The statements MemoryAccess renders once per shape and runs as (named, generic-planned)
 * prepared statements: what a caller asks for is a plan value, never SQL or a callback. The
 * door derives from the plan the shape key, the SQL text and the values, and binds the
 * scope's values from the scope itself (memory-access.ts, runPlan).
 */

/**
 * Narrowing filters of a search: source_site and namespaces in user scope only (the caller
 * decides which apply, spec 4.2.6); as_of in both scopes, as the moment the search reads
 * (visibility.ReadTime: what was known and valid then, CONTRACT section 12).
 */
export interface SearchFilters {
  sourceSite?: string;
  namespaces?: string[];
  asOf?: Date;
}

/** The purposes a search runs under: a caller's read, or a writer's view before it stores. */
export type SearchPurpose = Extract<AccessPurpose, 'read' | 'writer-view'>;

interface VectorPlanBase {
  scope: MemoryScope;
  purpose: SearchPurpose;
  filters: SearchFilters;
  /** The query vector, as a vector literal. */
  q: string;
  k: number;
  /** The lesson check in the same statement, or none. */
  gate: LessonGate | null;
  /** Re-check that this API key is still live in the same statement (null: no check). */
  liveKeyId: string | null;
}

/** Exact top k by cosine_distance(); with `bound`, at most bound + 1 candidate rows are read. */
export interface ExactVectorPlan extends VectorPlanBase {
  statement: 'exact-vector';
  bound: number | null;
}

/**
 * Top k through the HNSW index: `candidates` rows in relaxed order, re-sorted exactly, under
 * the HNSW session settings for `efSearch` (hnsw-settings.ts).
 */
export interface HnswVectorPlan extends VectorPlanBase {
  statement: 'hnsw-vector';
  candidates: number;
  efSearch: number;
}

export type VectorPlan = ExactVectorPlan | HnswVectorPlan;

/** BM25 over the visible rows (bm25-statement.ts): the words' OR, best k, with each row's distance to `q`. */
export interface FullTextPlan {
  statement: 'full-text';
  scope: MemoryScope;
  filters: SearchFilters;
  words: readonly string[];
  q: string;
  k: number;
  /** A large scope's remembered N and average length (null: computed by the statement). */
  population: Bm25Population | null;
}

/**
 * The caller's BM25 statistics for a query's words (bm25-statement.ts, termStatsStatement):
 * current rows, the read rule, no filters.
 */
export interface TermStatsPlan {
  statement: 'term-stats';
  scope: MemoryScope;
  words: readonly string[];
}

/**
 * BM25 over the postings, in one statement (bm25-statement.ts, rankedBm25Statement): the
 * caller's statistics for the query's `words`, and the visible current rows that contain one of
 * them scored, best k, each with its distance to `q`.
 */
export interface RankedTextPlan {
  statement: 'ranked-text';
  scope: MemoryScope;
  words: readonly string[];
  k: number;
  q: string;
}

/** Record filters of a list (user scope only; the caller decides which apply, spec 4.2.6). */
export interface RecordFilters {
  sourceSite?: string;
  episodeId?: string;
}

/** `time`: the moment the read sees (visibility.ReadTime; current rows when absent). */
export type RecordPlan =
  | { statement: 'record-by-id'; scope: MemoryScope; purpose: Extract<AccessPurpose, 'read' | 'writer-view'>; id: string; time?: ReadTime }
  | { statement: 'records-by-ids'; scope: MemoryScope; ids: readonly string[]; time?: ReadTime }
  | { statement: 'record-page'; scope: MemoryScope; filters: RecordFilters; limit: number; offset: number; time?: ReadTime };

export type StatementPlan = VectorPlan | FullTextPlan | TermStatsPlan | RankedTextPlan | RecordPlan;

/** The purpose a plan reads under. */
export function purposeOf(plan: StatementPlan): AccessPurpose {
  switch (plan.statement) {
    case 'exact-vector':
    case 'hnsw-vector':
    case 'record-by-id':
      return plan.purpose;
    case 'full-text':
    case 'term-stats':
    case 'ranked-text':
    case 'records-by-ids':
    case 'record-page':
      return 'read';
    default:
      return assertNever(plan);
  }
}

/** The moment a plan reads: a search's as_of, a record read's own time, else the current rows. */
export function timeOf(plan: StatementPlan): ReadTime {
  switch (plan.statement) {
    case 'exact-vector':
    case 'hnsw-vector':
    case 'full-text':
      return plan.filters.asOf ? { kind: 'as-of', at: plan.filters.asOf } : CURRENT;
    case 'term-stats':
    case 'ranked-text':
      return CURRENT;
    case 'record-by-id':
    case 'records-by-ids':
    case 'record-page':
      return plan.time ?? CURRENT;
    default:
      return assertNever(plan);
  }
}

/** The search filters present (as_of aside: it is the read time), as the statement's own named values. */
export function searchFilterValues(filters: SearchFilters): { f_sourceSite?: string; f_namespaces?: string[] } {
  const values: { f_sourceSite?: string; f_namespaces?: string[] } = {};
  if (filters.sourceSite !== undefined) values.f_sourceSite = filters.sourceSite;
  if (filters.namespaces?.length) values.f_namespaces = filters.namespaces;
  return values;
}

function recordFilterValues(filters: RecordFilters): { sourceSite?: string; episodeId?: string } {
  const values: { sourceSite?: string; episodeId?: string } = {};
  if (filters.sourceSite !== undefined) values.sourceSite = filters.sourceSite;
  if (filters.episodeId !== undefined) values.episodeId = filters.episodeId;
  return values;
}

const present = (values: object, names: readonly string[]): string => names.map((name) => (name in values ? '1' : '0')).join('');
const SEARCH_FILTERS = ['f_sourceSite', 'f_namespaces'] as const;

/**
 * What the plan's SQL text depends on, and nothing else: the statement, the scope's shape and
 * read time (visibility.scopeShapeKey), which filters are present, and which optional parts (bound,
 * lesson gate, key check) the statement has. Never a value.
 */
export function shapeKeyOf(plan: StatementPlan): string {
  const scope = scopeShapeKey(plan.scope, purposeOf(plan), timeOf(plan));
  switch (plan.statement) {
    case 'exact-vector':
      return [
        plan.statement,
        scope,
        present(searchFilterValues(plan.filters), SEARCH_FILTERS),
        plan.bound !== null,
        ...vectorParts(plan),
      ].join('|');
    case 'hnsw-vector':
      return [plan.statement, scope, present(searchFilterValues(plan.filters), SEARCH_FILTERS), ...vectorParts(plan)].join('|');
    case 'full-text':
      return [plan.statement, scope, present(searchFilterValues(plan.filters), SEARCH_FILTERS)].join('|');
    case 'ranked-text':
    case 'term-stats':
    case 'record-by-id':
    case 'records-by-ids':
      return [plan.statement, scope].join('|');
    case 'record-page':
      return [plan.statement, scope, present(recordFilterValues(plan.filters), ['sourceSite', 'episodeId'])].join('|');
    default:
      return assertNever(plan);
  }
}

const vectorParts = (plan: VectorPlan): boolean[] => [plan.gate !== null, plan.liveKeyId !== null];

/**
 * The plan's named values, the scope's excepted (the door binds those from the scope, last).
 * Names absent here are absent from the plan's text (shapeKeyOf keeps the two in step).
 */
export function planValues(plan: StatementPlan): Record<string, unknown> {
  switch (plan.statement) {
    case 'exact-vector':
      return {
        ...vectorValues(plan),
        ...(plan.bound === null ? {} : { candidateLimit: plan.bound + 1 }),
      };
    case 'hnsw-vector':
      return { ...vectorValues(plan), candidateLimit: plan.candidates };
    case 'full-text':
      return { ...searchFilterValues(plan.filters), ...bm25Parameters(plan.words, plan.k, undefined, plan.population), q: plan.q };
    case 'term-stats':
      return { bm25_text: plan.words.join(' ') };
    case 'ranked-text':
      return { bm25_text: plan.words.join(' '), bm25_tsq: plan.words.join(' | '), bm25_k: plan.k, q: plan.q };
    case 'record-by-id':
      return { id: plan.id };
    case 'records-by-ids':
      return { ids: [...plan.ids] };
    case 'record-page':
      return { ...recordFilterValues(plan.filters), limit: plan.limit, offset: plan.offset };
    default:
      return assertNever(plan);
  }
}

function vectorValues(plan: VectorPlan): Record<string, unknown> {
  return {
    ...searchFilterValues(plan.filters),
    ...(plan.gate ? { lessonMaxDistance: plan.gate.maxDistance, lessonLimit: plan.gate.limit } : {}),
    ...(plan.liveKeyId === null ? {} : { liveKeyId: plan.liveKeyId }),
    q: plan.q,
    k: plan.k,
  };
}
