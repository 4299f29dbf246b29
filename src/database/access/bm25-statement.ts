import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Okapi BM25 over the caller's visible memories, in SQL.
 *
 * BM25's document frequencies and average length must describe the rows the caller may see: a
 * count over every row of a user would include rows hidden from the caller (another agent's
 * private memories in a workspace), so a hidden memory would shift the ranking of visible ones
 * and leak, through ordering, that a term exists. Two ways to get them here, both exact:
 *
 * - kept (rankedBm25Statement over termStatsStatement, the unfiltered searches): memory_term_stats
 *   holds per-scope counts split by what decides visibility (migration 1763700400000), and the
 *   caller sums exactly the classes it reads (visibility.termStatsCondition), in O(query terms);
 *   the rows are then scored from memory_postings (migration 1763700600000), the same classes
 *   per memory and lexeme, read from one covering index instead of the heap;
 * - per query (bm25Statement, the filtered searches, whose visible set the classes do not
 *   describe): one pass over the visible rows for N and the average length, plus the matching
 *   rows (the GIN index on content_tsv finds them) unnested to their query lexemes. Large scopes
 *   reuse N and avgdl for a minute (Bm25Population).
 *
 * A row's score is the sum of its lexemes' terms, each rounded to a multiple of 1e-7 and added
 * as integers (orderFreeSum): a sum of doubles depends on the order in which the plan brings
 * the terms, so two plans (the postings' and the per-query statement's, or two generic plans of
 * one) could rank two tying rows apart by one unit in the last place. Integers add exactly in any order. The terms are
 * `integer`, whose sum PostgreSQL keeps in a plain 64-bit value; a `bigint` sum keeps a
 * 128-bit state allocated for every row being scored, and a `numeric` one (the first version)
 * a numeric per term.
 *
 * Lexemes are PostgreSQL's `english` configuration (stemmed, stop words removed); a memory's
 * length is its number of distinct lexemes (`length(tsvector)`), its term frequency the
 * number of positions of the lexeme.
 */
/**
 * Tuned on the LoCoMo dev conversations (docs/retrieval.md): short chat turns want less
 * length normalisation and an earlier saturation than the textbook 1.2 / 0.75 (the recall of
 * both is in docs/retrieval.md, "Figures step by step").
 */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;

/**
 * Quantum of a BM25 term in the order-free sum: far below any score difference that matters
 * (scores are ~0.1-100), and coarse enough for a term to fit an `integer`. A term is below
 * idf * (k1 + 1), and idf below ln(2N + 2): under 41, or 4.1e8 quanta, for N up to 10^9 rows
 * in one scope, against the integer's 2.1e9.
 */
const SCORE_QUANTUM = 1e7;

/**
 * `sum(term)` over a group, the same whatever order the rows come in: each term rounded to a
 * multiple of 1/SCORE_QUANTUM as an integer (PostgreSQL sums those exactly into a bigint),
 * then scaled back to a double once per group.
 */
function orderFreeSum(term: string): string {
  return fromQuanta(`sum(${toQuanta(term)})`);
}

/** A term as a whole number of quanta. */
function toQuanta(term: string): string {
  return `CAST(round((${term}) * ${SCORE_QUANTUM}) AS integer)`;
}

/**
 * One lexeme's BM25 term for a row, from SQL expressions (double precision) of its idf, the
 * term frequency, the row's length and the average length: the one formula both the per-query
 * statement and the postings' statement score with, so the two rank alike to the last bit.
 */
function bm25Term(idf: string, tf: string, dl: string, avgdl: string): string {
  return `${idf} * ${tf} * ${BM25_K1 + 1} / (${tf} + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * ${dl} / greatest(${avgdl}, 1)))`;
}

/** A sum of quanta back to a score. */
function fromQuanta(quanta: string): string {
  return `CAST(${quanta} AS double precision) / ${SCORE_QUANTUM}`;
}

export interface Bm25Statement {
  /** Selects `id` and `text_rank` (the BM25 score), best first, at most k rows. */
  sql: string;
  parameters: ObjectLiteral;
}

/**
 * `matches` and `population` are two fresh builders over memories, each already scoped by
 * applyMemoryScope (and narrowed by the same filters), with aliases `t` and `p`. The words
 * are the query's searchable words; `tsQuery` their OR for to_tsquery.
 */
export function bm25Statement<T extends ObjectLiteral>(
  matches: SelectQueryBuilder<T>,
  population: SelectQueryBuilder<T>,
  words: readonly string[],
  tsQuery: string,
  k: number,
): Bm25Statement {
  matches.select('t.id', 'id').addSelect('t.content_tsv', 'tsv').andWhere("t.content_tsv @@ to_tsquery('english', :bm25_tsq)");
  population.select('CAST(count(*) AS double precision)', 'n').addSelect('CAST(avg(length(p.content_tsv)) AS double precision)', 'avgdl');
  const sql = `WITH hits AS (
      SELECT h.id, u.lexeme, CAST(cardinality(u.positions) AS double precision) AS tf, CAST(length(h.tsv) AS double precision) AS dl
      FROM (${matches.getQuery()}) h CROSS JOIN LATERAL unnest(h.tsv) u
      WHERE u.lexeme = ANY(tsvector_to_array(to_tsvector('english', :bm25_text)))
    ), stats AS (
      (SELECT CAST(:bm25_n AS double precision) AS n, CAST(:bm25_avgdl AS double precision) AS avgdl WHERE CAST(:bm25_n AS double precision) IS NOT NULL)
      UNION ALL (${population.getQuery()})
      LIMIT 1),
    df AS (SELECT lexeme, CAST(count(*) AS double precision) AS df FROM hits GROUP BY lexeme)
    SELECT h.id AS id, ${orderFreeSum(bm25Term('ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5))', 'h.tf', 'h.dl', 'st.avgdl'))} AS text_rank, min(st.n) AS bm25_n, min(st.avgdl) AS bm25_avgdl
    FROM hits h JOIN df d ON d.lexeme = h.lexeme CROSS JOIN stats st
    GROUP BY h.id ORDER BY text_rank DESC, h.id LIMIT :bm25_k`;
  return {
    sql,
    parameters: { ...population.getParameters(), ...matches.getParameters(), ...bm25Parameters(words, k, tsQuery) },
  };
}

/**
 * N and the average length of the caller's visible rows, as the statement computed them. A
 * large scope reuses them for a while (VectorSearch.textMatches): they are the caller's own
 * visible set, so reusing them hides nothing and reveals nothing it could not see; only the
 * ranking lags a minute behind writes. The document frequencies are always computed afresh.
 */
export interface Bm25Population {
  n: number;
  avgdl: number;
}

/**
 * The statement's own parameters (its text does not depend on the words, only these values
 * do). With `population`, the statement takes N and avgdl from it instead of reading every
 * visible row for them (the UNION ALL ... LIMIT 1 in `stats` never runs its second branch).
 */
export function bm25Parameters(
  words: readonly string[],
  k: number,
  tsQuery = words.join(' | '),
  population: Bm25Population | null = null,
): { bm25_tsq: string; bm25_text: string; bm25_k: number; bm25_n: number | null; bm25_avgdl: number | null } {
  return { bm25_tsq: tsQuery, bm25_text: words.join(' '), bm25_k: k, bm25_n: population?.n ?? null, bm25_avgdl: population?.avgdl ?? null };
}

/**
 * The BM25 statistics of the caller's visible rows for the query's lexemes, in O(query terms):
 * one row per lexeme of `:bm25_text` (as PostgreSQL's `english` configuration makes it) and one
 * with lexeme '' (documents and total length), each the sum of the rows `classes` selects
 * (visibility.termStatsCondition, alias `s`) in memory_term_stats (folded) and in
 * memory_term_changes (appended by writes since the last fold, migration 1763700700000), and of
 * the visible rows with an expiry, which the tables do not hold (`expiring`: a builder scoped by
 * applyMemoryScope, alias `e`). Together they are exactly the visible rows (migration 1763700400000).
 */
export function termStatsStatement<T extends ObjectLiteral>(expiring: SelectQueryBuilder<T>, classes: string): string {
  expiring.select('e.content_tsv', 'tsv').andWhere('e.expires_at IS NOT NULL');
  // A LATERAL lookup per lexeme: each is an index scan on (user_id, workspace_id, lexeme) in the
  // generic plan too, where `lexeme = ANY(<array from a subquery>)` would be a filter over the scope's rows.
  return `WITH q AS (SELECT DISTINCT l AS lexeme FROM unnest(tsvector_to_array(to_tsvector('english', :bm25_text))) l),
    wanted AS (SELECT lexeme FROM q UNION ALL SELECT CAST('' AS text)),
    expiring AS (
      SELECT t.lexeme, t.docs, t.length_sum FROM (${expiring.getQuery()}) e CROSS JOIN LATERAL atrium_term_rows(e.tsv) t
       WHERE t.lexeme IN (SELECT lexeme FROM wanted))
    SELECT w.lexeme AS lexeme,
           CAST(COALESCE(k.docs, 0) + COALESCE(x.docs, 0) AS double precision) AS docs,
           CAST(COALESCE(k.length_sum, 0) + COALESCE(x.length_sum, 0) AS double precision) AS length_sum
      FROM wanted w
      CROSS JOIN LATERAL (
        SELECT sum(c.docs) AS docs, sum(c.length_sum) AS length_sum FROM (
          SELECT s.docs, s.length_sum FROM memory_term_stats s WHERE ${classes} AND s.lexeme = w.lexeme
          UNION ALL
          SELECT s.docs, s.length_sum FROM memory_term_changes s WHERE ${classes} AND s.lexeme = w.lexeme) c) k
      LEFT JOIN (SELECT lexeme, sum(docs) AS docs, sum(length_sum) AS length_sum FROM expiring GROUP BY lexeme) x ON x.lexeme = w.lexeme`;
}

/** The caller's statistics for a query: N, the total length, and each query lexeme's document frequency. */
export interface TermStatistics {
  n: number;
  lengthSum: number;
  /** Every lexeme of the query, with the visible rows that contain it (0 when none). */
  df: Map<string, number>;
}

export function toTermStatistics(rows: { lexeme: string; docs: number | string; length_sum: number | string }[]): TermStatistics {
  const df = new Map<string, number>();
  let n = 0;
  let lengthSum = 0;
  for (const row of rows) {
    if (row.lexeme === '') {
      n = Number(row.docs);
      lengthSum = Number(row.length_sum);
    } else df.set(row.lexeme, Number(row.docs));
  }
  return { n, lengthSum, df };
}

/**
 * The best k rows by BM25 among the caller's visible current rows, in one statement, exactly:
 * every row that contains a query lexeme is scored.
 *
 * - `stats`: the caller's statistics for the query's lexemes (`statsSql`, termStatsStatement:
 *   O(query lexemes), exact for the caller); `pop`, N and the average length; `terms`, the
 *   lexemes some visible row contains, with their idf.
 * - `hits`: the rows without an expiry come from memory_postings (migration 1763700600000)
 *   through `classes(alias)`, the caller's visibility classes (visibility.termStatsCondition),
 *   the same condition its statistics were summed with: each lexeme's range of the covering
 *   index, each posting scored where it is read. The rows with an expiry, which the postings do
 *   not hold, come from `expiring` (alias `t`, scoped by applyMemoryScope), matched on
 *   `:bm25_tsq` and unnested as the per-query statement does.
 * - one aggregate sums each row's terms, and the best k are kept.
 *
 * The caller then reads the k rows themselves through the door (textStatementSql with a scoped
 * builder), so a row the postings named wrongly could only be dropped, never shown. The score is
 * the same expression as bm25Statement's on the same double precision values, so the two rank
 * alike. Besides `id` and `text_rank`, every row carries N, the average length and the number
 * of lexemes scored (`bm25_lexemes`), each a subquery run once for the statement: as aggregates
 * of every group (`min(p.n)` over `hits` joined to `pop`) they cost two more transition calls
 * and a join step per posting, ~15% of /search's database time on the largest 1M scopes
 * (docs/bench-notes/bm25-statistics.md, "The aggregate sums, and nothing else").
 *
 * This replaced three statements (statistics, MaxScore's floor over the rarest lexemes, and a
 * pass that aggregated only the rows able to reach the top k, semi-joining the other lexemes'
 * ranges to them): the ranges were read whole either way, aggregating every posting cost what
 * the semi-join did, and the floor and two round trips were saved
 * (docs/bench-notes/bm25-statistics.md, "One statement").
 */
export function rankedBm25Statement<T extends ObjectLiteral>(
  statsSql: string,
  expiring: SelectQueryBuilder<T>,
  classes: (alias: string) => string,
  ranges: (alias: string) => readonly string[],
): string {
  // One lookup per range of the index that holds the caller's rows (visibility.postingRanges), or one
  // for the whole lexeme when the scope has no split.
  const lookup = (range: string | null) =>
    `SELECT p.memory_id, p.tf, p.dl FROM memory_postings p WHERE ${classes('p')}${range ? ` AND ${range}` : ''} AND p.lexeme = w.lexeme OFFSET 0`;
  const split = ranges('p');
  const postings = split.length === 0 ? lookup(null) : split.map((range) => `(${lookup(range)})`).join(' UNION ALL ');
  expiring
    .select('t.id', 'id')
    .addSelect('t.content_tsv', 'tsv')
    .andWhere('t.expires_at IS NOT NULL')
    .andWhere("t.content_tsv @@ to_tsquery('english', :bm25_tsq)");
  return `WITH stats AS (${statsSql}),
    pop AS (
      SELECT s.docs AS n, s.length_sum / s.docs AS avgdl FROM stats s WHERE s.lexeme = '' AND s.docs > 0
    ), terms AS (
      SELECT s.lexeme, ln(1 + (p.n - s.docs + 0.5) / (s.docs + 0.5)) AS idf
        FROM stats s CROSS JOIN pop p WHERE s.lexeme <> '' AND s.docs > 0
    ), hits AS (
      -- The caller's ranges of a covering index per lexeme. OFFSET 0 keeps each lookup a subquery
      -- run per lexeme: flattened into a join, the generic plan of the named statement (which
      -- expects a handful of rows per scope) scanned the whole scope and filtered.
      SELECT p.memory_id AS id, ${termScore('w', 'p.tf', 'p.dl')} AS score
        FROM terms w
        CROSS JOIN LATERAL (${postings}) p
      UNION ALL
      SELECT h.id, ${termScore('w', 'cardinality(u.positions)', 'length(h.tsv)')}
        FROM (${expiring.getQuery()}) h CROSS JOIN LATERAL unnest(h.tsv) u JOIN terms w ON w.lexeme = u.lexeme
    )
    SELECT h.id AS id, ${fromQuanta('sum(h.score)')} AS text_rank, (SELECT p.n FROM pop p) AS bm25_n,
           (SELECT p.avgdl FROM pop p) AS bm25_avgdl, (SELECT count(*) FROM terms) AS bm25_lexemes
    FROM hits h
    GROUP BY h.id ORDER BY text_rank DESC, h.id LIMIT :bm25_k`;
}

/**
 * One posting's BM25 term in quanta (orderFreeSum's integer), with the idf of `terms` row
 * `alias` and the statement's average length (`pop`): bm25Term, as bm25Statement sums it, on the
 * same double precision values, so both statements score a row alike to the last bit. Computed
 * where the posting is read, the aggregate sums one integer a posting instead of joining each to
 * its lexeme's idf first (~10% of a pass on the largest scopes, docs/bench-notes/bm25-statistics.md).
 */
function termScore(alias: string, tf: string, dl: string): string {
  const f = `CAST(${tf} AS double precision)`;
  const d = `CAST(${dl} AS double precision)`;
  return toQuanta(bm25Term(`${alias}.idf`, f, d, '(SELECT p.avgdl FROM pop p)'));
}
