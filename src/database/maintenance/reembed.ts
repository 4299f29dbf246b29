import type { DataSource } from 'typeorm';

import { identityOf } from '../../embeddings/embedding-identity';
import type { EmbeddingProvider } from '../../embeddings/embedding-provider';
import { toVectorLiteral } from '../vector';

/** Each table with vectors, and the text its vector was made from. */
const SOURCES = [
  { table: 'memories', text: 'content' },
  // Lessons store the pattern; the vector was made from the pattern or from the offending extract.
  { table: 'lessons', text: 'pattern' },
] as const;

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

export interface ReembedProgress {
  table: string;
  /** Rows of this table re-embedded so far in this run. */
  done: number;
  /** Rows of this table that needed it when the run reached the table. */
  total: number;
}

export interface ReembedOptions {
  batchSize: number;
  /** Stop after this many batches in all (a bounded run; the next run resumes). */
  maxBatches?: number;
  /** Checked between batches: stop cleanly (what is done stays done). */
  shouldStop?: () => boolean;
  onProgress?: (progress: ReembedProgress) => void;
}

export interface ReembedResult {
  identity: string;
  updated: number;
  /** Every row now carries `identity` (false when stopped early). */
  complete: boolean;
}

/**
 * Re-embeds every row whose vector another embedder made, in batches of `batchSize`: read a
 * batch in id order, embed its texts, write vector and label in one UPDATE. The label is the
 * progress record: an interrupted run leaves converted rows labelled and the rest not, and the
 * next run simply takes the rows not yet labelled. Safe while the service runs: the UPDATE
 * applies only if the text is still the one embedded (a row changed meanwhile keeps its
 * fresher vector and label, and a later run picks it up if it needs one); updated_at is left
 * alone, since the memory itself did not change.
 */
export async function reembed(dataSource: DataSource, provider: EmbeddingProvider, options: ReembedOptions): Promise<ReembedResult> {
  const identity = identityOf(provider);
  let updated = 0;
  let batches = 0;
  for (const { table, text } of SOURCES) {
    const [{ n }]: { n: string }[] = await dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE embedded_by <> $1`, [identity]);
    const progress: ReembedProgress = { table, done: 0, total: Number(n) };
    options.onProgress?.(progress);
    let cursor = FIRST_ID;
    for (;;) {
      if (options.shouldStop?.() || (options.maxBatches !== undefined && batches >= options.maxBatches)) {
        return { identity, updated, complete: false };
      }
      const rows: { id: string; user_id: string; text: string }[] = await dataSource.query(
        `SELECT id, user_id, ${text} AS text FROM ${table} WHERE embedded_by <> $1 AND id > $2 ORDER BY id LIMIT $3`,
        [identity, cursor, options.batchSize],
      );
      if (rows.length === 0) break;
      const vectors = await provider.embed(rows.map((r) => r.text));
      const result: [unknown, number] = await dataSource.query(
        `UPDATE ${table} AS t SET embedding = CAST(v.embedding AS vector), embedded_by = $1
           FROM unnest(CAST($2 AS uuid[]), CAST($3 AS text[]), CAST($4 AS text[]), CAST($5 AS text[])) AS v(id, user_id, text, embedding)
          WHERE t.id = v.id AND t.user_id = v.user_id AND t.${text} = v.text`,
        [identity, rows.map((r) => r.id), rows.map((r) => r.user_id), rows.map((r) => r.text), vectors.map((v) => toVectorLiteral(v))],
      );
      const affected = Array.isArray(result) && typeof result[1] === 'number' ? result[1] : rows.length;
      updated += affected;
      progress.done += rows.length;
      options.onProgress?.(progress);
      cursor = rows[rows.length - 1].id;
      batches++;
    }
  }
  return { identity, updated, complete: true };
}
