import type { MemoryScope } from '../common/scope/memory-scope';
import type { MemoryAccess } from '../database/access/memory-access';
import type { RankedTextResult } from '../database/access/search-statement';

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
export function rankBm25(
  access: Pick<MemoryAccess, 'rankedText'>,
  scope: MemoryScope,
  words: readonly string[],
  q: string,
  k: number,
): Promise<RankedTextResult> {
  return access.rankedText({ statement: 'ranked-text', scope, words, k, q });
}
