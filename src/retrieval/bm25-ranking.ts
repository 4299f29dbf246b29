import type { MemoryScope } from '../common/scope/memory-scope';
import { BM25_K1, type TermStatistics } from '../database/access/bm25-statement';
import type { MemoryAccess } from '../database/access/memory-access';
import type { TextStatementRow } from '../database/access/search-statement';

/**
 * Rows the floor (below) may read, as the summed document frequencies of the lexemes it looks
 * at: the rarest lexemes up to this many (at least one). docs/retrieval.md, "BM25 statistics",
 * has the sweep of the first pass this replaced.
 */
export const FIRST_PASS_ROWS = 1_000;

/** Relative slack on the JavaScript bound, so that no rounding difference from PostgreSQL's ln() can prune a row that ties. */
const BOUND_SLACK = 1e-9;

/** What a ranking did, for the span and the tests. */
export interface Bm25Ranking {
  rows: TextStatementRow[];
  /** Statements that scored rows (0 when the query has no lexeme a visible row contains; else 1). */
  passes: number;
  /**
   * How the pass's lexemes were chosen: `all` (the rarest already make up every lexeme, or
   * none is present), `kept` (the floor showed the rarest enough), `widened` (it added more).
   */
  choice: 'all' | 'kept' | 'widened';
  /** Lexemes the pass matched on, of those a visible row contains. */
  matched: number;
  scored: number;
}

/** BM25's inverse document frequency, as the statements compute it. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The best k rows by BM25 among the caller's visible current rows, exactly as scoring every
 * row that contains a query lexeme would rank them, while scoring only the rows that can reach
 * the top k (MaxScore, Turtle and Flood 1995), in one scoring pass:
 *
 * 1. The statistics come first (termStatistics: O(query lexemes), exact for the caller).
 * 2. A lexeme adds at most idf * (k1 + 1) to a row's score (term frequency saturates there).
 *    Sorted rarest first, the rarest lexemes whose summed frequency stays within
 *    FIRST_PASS_ROWS (at least one) are looked at first: bm25Floor scores the rows that contain
 *    them over those lexemes only (their ranges of the postings, nothing else) and returns the
 *    k-th best such partial score. A partial score is at most the row's full score, so the k-th
 *    best full score of any pass that matches on these lexemes or more is at least that floor.
 * 3. The pass matches on the shortest prefix whose remaining bound is below the floor (every
 *    lexeme when the floor is 0), and scores its rows over every query lexeme. No row without a
 *    matched lexeme can then score above the pass's k-th row: it is exact.
 * Rows tie on score and are ordered by id, as in the statement that scores all.
 *
 * The floor replaced a second scoring pass (the first pass scored its rows over every lexeme,
 * and when its k-th score did not clear the bound, a wider pass read everything again): on the
 * largest scopes that took 1.6 passes a search (docs/bench-notes/bm25-statistics.md).
 */
export async function rankBm25(
  access: Pick<MemoryAccess, 'termStatistics' | 'textSearch' | 'bm25Floor'>,
  scope: MemoryScope,
  words: readonly string[],
  q: string,
  k: number,
  firstPassRows = FIRST_PASS_ROWS,
): Promise<Bm25Ranking> {
  const stats = await access.termStatistics({ statement: 'term-stats', scope, words });
  const terms = presentTerms(stats);
  if (stats.n === 0 || terms.length === 0) return { rows: [], passes: 0, choice: 'all', matched: 0, scored: terms.length };
  const n = stats.n;
  const avgdl = stats.lengthSum / n;
  const lexemes = terms.map(([lexeme]) => lexeme);
  const dfs = terms.map(([, df]) => df);
  // rest[i]: the most the lexemes from i on can add to a row's score.
  const rest = new Array<number>(terms.length + 1).fill(0);
  for (let i = terms.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + bm25Idf(n, dfs[i]) * (BM25_K1 + 1) * (1 + BOUND_SLACK);

  let first = 1;
  for (let rows = dfs[0]; first < terms.length && rows + dfs[first] <= firstPassRows; first++) rows += dfs[first];
  let matched = first;
  const input = { scope, lexemes, dfs, n, avgdl, k };
  if (first < terms.length) {
    const floor = await access.bm25Floor({ statement: 'bm25-floor', ...input, matchLexemes: lexemes.slice(0, first) });
    while (matched < terms.length && rest[matched] >= floor) matched++;
  }
  const { rows } = await access.textSearch({ statement: 'ranked-text', ...input, matchLexemes: lexemes.slice(0, matched), q });
  const choice = first === terms.length ? 'all' : matched === first ? 'kept' : 'widened';
  return { rows, passes: 1, choice, matched, scored: terms.length };
}

/** The query's lexemes that some visible row contains, rarest first (ties by lexeme, so the order never depends on the map). */
function presentTerms(stats: TermStatistics): [string, number][] {
  return [...stats.df].filter(([, df]) => df > 0).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
