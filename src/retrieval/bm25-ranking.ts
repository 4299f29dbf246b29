import type { MemoryScope } from '../common/scope/memory-scope';
import { BM25_K1, type TermStatistics } from '../database/access/bm25-statement';
import type { MemoryAccess } from '../database/access/memory-access';
import type { TextStatementRow } from '../database/access/search-statement';

/**
 * Rows the first pass may read, as the summed document frequencies of the lexemes it matches
 * on: the rarest lexemes up to this many (at least one). Larger reads more rows more often; smaller
 * makes the second pass (below) more frequent. docs/retrieval.md, "BM25 statistics", has the sweep.
 */
export const FIRST_PASS_ROWS = 1_000;

/** Relative slack on the JavaScript bound, so that no rounding difference from PostgreSQL's ln() can prune a row that ties. */
const BOUND_SLACK = 1e-9;

/** What a ranking did, for the span and the tests. */
export interface Bm25Ranking {
  rows: TextStatementRow[];
  /** Statements that scored rows (0 when the query has no lexeme a visible row contains). */
  passes: number;
  /** Lexemes the last pass matched on, of those a visible row contains. */
  matched: number;
  scored: number;
}

/** BM25's inverse document frequency, as the statements compute it. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The best k rows by BM25 among the caller's visible current rows, exactly as scoring every
 * row that contains a query lexeme would rank them, while reading only the rows that can reach
 * the top k (MaxScore, Turtle and Flood 1995):
 *
 * 1. The statistics come first (termStatistics: O(query lexemes), exact for the caller).
 * 2. A lexeme adds at most idf * (k1 + 1) to a row's score (term frequency saturates there).
 *    Sorted rarest first, the first pass matches rows on the rarest lexemes only (summed
 *    frequency up to FIRST_PASS_ROWS) but scores each of them over every query lexeme.
 * 3. If it found k rows and the k-th score exceeds the sum of the bounds of the lexemes it did
 *    not match on, no row without a matched lexeme can enter the top k: done. Otherwise the
 *    k-th score is still a floor of the final one, so the second pass matches on the shortest
 *    prefix whose remaining bound is below it (all lexemes when it found fewer than k rows).
 * Rows tie on score and are ordered by id in every pass, as in the statement that scores all.
 */
export async function rankBm25(
  access: Pick<MemoryAccess, 'termStatistics' | 'textSearch'>,
  scope: MemoryScope,
  words: readonly string[],
  q: string,
  k: number,
  firstPassRows = FIRST_PASS_ROWS,
): Promise<Bm25Ranking> {
  const stats = await access.termStatistics({ statement: 'term-stats', scope, words });
  const terms = presentTerms(stats);
  if (stats.n === 0 || terms.length === 0) return { rows: [], passes: 0, matched: 0, scored: terms.length };
  const n = stats.n;
  const avgdl = stats.lengthSum / n;
  const lexemes = terms.map(([lexeme]) => lexeme);
  const dfs = terms.map(([, df]) => df);
  // rest[i]: the most the lexemes from i on can add to a row's score.
  const rest = new Array<number>(terms.length + 1).fill(0);
  for (let i = terms.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + bm25Idf(n, dfs[i]) * (BM25_K1 + 1) * (1 + BOUND_SLACK);

  const pass = async (matched: number): Promise<TextStatementRow[]> =>
    (
      await access.textSearch({
        statement: 'ranked-text',
        scope,
        lexemes,
        dfs,
        matchLexemes: lexemes.slice(0, matched),
        n,
        avgdl,
        q,
        k,
      })
    ).rows;

  let matched = 1;
  for (let rows = dfs[0]; matched < terms.length && rows + dfs[matched] <= firstPassRows; matched++) rows += dfs[matched];
  const first = await pass(matched);
  if (matched === terms.length) return { rows: first, passes: 1, matched, scored: terms.length };
  const floor = first.length === k ? first[k - 1].textRank : 0;
  if (floor > rest[matched]) return { rows: first, passes: 1, matched, scored: terms.length };
  let widened = matched;
  while (widened < terms.length && rest[widened] >= floor) widened++;
  return { rows: await pass(widened), passes: 2, matched: widened, scored: terms.length };
}

/** The query's lexemes that some visible row contains, rarest first (ties by lexeme, so the order never depends on the map). */
function presentTerms(stats: TermStatistics): [string, number][] {
  return [...stats.df].filter(([, df]) => df > 0).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
