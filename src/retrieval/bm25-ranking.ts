import type { MemoryScope } from '../common/scope/memory-scope';
import type { MemoryAccess } from '../database/access/memory-access';
import type { TextStatementRow } from '../database/access/search-statement';

/** What a ranking did, for the span and the tests. */
export interface Bm25Ranking {
  rows: TextStatementRow[];
  /** The query's lexemes that some visible row contains, each scored (0 when none). */
  lexemes: number;
}

/**
 * The best k rows by BM25 among the caller's visible current rows, exactly: one statement
 * (bm25-statement.ts, rankedBm25Statement) reads the caller's statistics for the query's words
 * in O(query lexemes) and scores every visible row that contains one of them from the postings.
 * Rows tie on score and are ordered by id, as the per-query statement orders them.
 *
 * It replaced a MaxScore ranking of three statements (docs/bench-notes/bm25-statistics.md,
 * "One statement"): a floor over the rarest lexemes' postings let the pass aggregate only the
 * rows able to reach the top k, but the other lexemes' ranges were still read whole to complete
 * those rows, and aggregating every posting costs what that did, without the floor's statement.
 */
export async function rankBm25(
  access: Pick<MemoryAccess, 'rankedText'>,
  scope: MemoryScope,
  words: readonly string[],
  q: string,
  k: number,
): Promise<Bm25Ranking> {
  const { rows, lexemes } = await access.rankedText({ statement: 'ranked-text', scope, words, k, q });
  return { rows, lexemes };
}
