import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Okapi BM25 over the caller's visible memories, in one SQL statement.
 *
 * Why computed per query rather than kept in a statistics table: BM25's document frequencies
 * and average length must describe the rows the caller may see. A table of per-user term
 * counts would count rows hidden from the caller (another agent's private memories in a
 * workspace), so a hidden memory would shift the ranking of visible ones and leak, through
 * ordering, that a term exists. Here every statistic comes from the same visibility-scoped
 * builders (visibility.ts) that pick the candidates, so writes, deletes, visibility
 * changes and grants are reflected at once and nothing else has to be kept current.
 *
 * The cost is one pass over the visible rows for N and the average length, plus the
 * matching rows (the GIN index on content_tsv finds them) unnested to their query lexemes.
 * On a large scope the pass is most of it (docs/benchmarks.md, "Round two, large scopes",
 * step 8), so large scopes reuse N and avgdl for a minute (Bm25Population).
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
    SELECT h.id AS id, sum(
        ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5))
        * h.tf * ${BM25_K1 + 1} / (h.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * h.dl / greatest(st.avgdl, 1)))
      ) AS text_rank, min(st.n) AS bm25_n, min(st.avgdl) AS bm25_avgdl
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
