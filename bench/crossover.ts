/**
 * Measurements behind the query design, taken in the database (through the repository, no
 * HTTP): for scopes of growing size, the exact plan against the HNSW plan (latency and the
 * HNSW plan's recall@10 against the exact one), and for the largest scopes, recall and
 * latency of the HNSW plan as hnsw.ef_search grows.
 */
import type { DataSource } from 'typeorm';

import type { MemoryScope } from '../src/common/scope/memory-scope';
import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import type { ScoredRow, VectorSearch } from '../src/retrieval/vector-search';
import { percentile } from './load';
import type { QueryRecorder } from './plans';

export interface CrossoverRow {
  scope: string;
  visible: number;
  exactP50: number;
  hnswP50: number;
  hnswRecall: number;
  /** HNSW answers with fewer than k rows (the iterative scan gave up). */
  hnswShort: number;
}

export interface EfRow {
  scope: string;
  visible: number;
  efSearch: number;
  /** Candidates the inner HNSW query takes before the exact re-sort (its LIMIT). */
  candidates?: number;
  p50: number;
  p95: number;
  recall: number;
}

const K = 10;

function overlap(truth: ScoredRow[], got: ScoredRow[]): number {
  if (truth.length === 0) return 1;
  const kth = truth[truth.length - 1].distance + 1e-6;
  return Math.min(1, got.filter((r) => r.distance <= kth).length / truth.length);
}

const toLiteral = (v: number[]) => `[${v.join(',')}]`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await work();
  return [value, performance.now() - t0];
}

export async function measureCrossover(
  plans: VectorSearch,
  scopes: { label: string; scope: MemoryScope; visible: number; texts: string[] }[],
  dims: number,
): Promise<CrossoverRow[]> {
  const embedder = new HashEmbeddingProvider(dims);
  const rows: CrossoverRow[] = [];
  for (const s of scopes) {
    const exactTimes: number[] = [];
    const hnswTimes: number[] = [];
    const recalls: number[] = [];
    let short = 0;
    // one untimed round first: plans and buffers warm for both
    const warm = toLiteral(embedder.embedOne(s.texts[0]));
    await plans.exactNearest(s.scope, warm, K, {});
    await plans.indexedNearest(s.scope, warm, K, {});
    for (const text of s.texts) {
      const q = toLiteral(embedder.embedOne(text));
      const [exact, te] = await timed(() => plans.exactNearest(s.scope, q, K, {}));
      const [hnsw, th] = await timed(() => plans.indexedNearest(s.scope, q, K, {}));
      exactTimes.push(te);
      hnswTimes.push(th);
      recalls.push(overlap(exact ?? [], hnsw));
      if (hnsw.length < Math.min(K, s.visible)) short++;
    }
    rows.push({
      scope: s.label,
      visible: s.visible,
      exactP50: percentile(
        exactTimes.sort((a, b) => a - b),
        50,
      ),
      hnswP50: percentile(
        hnswTimes.sort((a, b) => a - b),
        50,
      ),
      hnswRecall: recalls.reduce((a, b) => a + b, 0) / recalls.length,
      hnswShort: short,
    });
  }
  return rows;
}

/**
 * The HNSW statement recorded once per scope, then re-run with other query vectors, other
 * hnsw.ef_search values and other over-fetch sizes (the inner query's LIMIT; every other
 * setting as the repository sets it).
 */
export async function measureEfSearch(
  ds: DataSource,
  plans: VectorSearch,
  recorder: QueryRecorder,
  scopes: { label: string; scope: MemoryScope; visible: number; texts: string[] }[],
  dims: number,
  variants: { efSearch: number; candidates: number }[],
): Promise<EfRow[]> {
  const embedder = new HashEmbeddingProvider(dims);
  const rows: EfRow[] = [];
  for (const s of scopes) {
    const first = toLiteral(embedder.embedOne(s.texts[0]));
    const recorded = await recorder.capture(() => plans.indexedNearest(s.scope, first, K, {}));
    const settings = recorded.find((r) => /set_config\(/.test(r.sql));
    const select = recorded.find((r) => /^\s*(SELECT|WITH)\b/i.test(r.sql) && !/set_config\(/.test(r.sql));
    if (!settings || !select) throw new Error('could not record the HNSW statement');
    const vectorIndex = select.parameters.findIndex((p) => p === first);
    const truths = await Promise.all(s.texts.map((t) => plans.exactNearest(s.scope, toLiteral(embedder.embedOne(t)), K, {})));
    // The over-fetch is the candidates' LIMIT parameter; set_config takes (name, value) pairs.
    const limitParam = /LIMIT \$(\d+)\) c\b/.exec(select.sql);
    if (!limitParam) throw new Error('could not find the over-fetch LIMIT of the HNSW statement');
    const limitIndex = Number(limitParam[1]) - 1;
    const efIndex = settings.parameters.indexOf('hnsw.ef_search') + 1;
    if (efIndex === 0) throw new Error('could not find hnsw.ef_search in the recorded settings');
    for (const { efSearch: ef, candidates } of variants) {
      const sql = select.sql;
      const times: number[] = [];
      const recalls: number[] = [];
      for (const [i, text] of s.texts.entries()) {
        const q = toLiteral(embedder.embedOne(text));
        const params = select.parameters.map((p, j) => (j === vectorIndex ? q : j === limitIndex ? candidates : p));
        const runner = ds.createQueryRunner();
        await runner.connect();
        try {
          await runner.query('BEGIN');
          await runner.query(
            settings.sql,
            settings.parameters.map((p, j) => (j === efIndex ? String(ef) : p)),
          );
          const t0 = performance.now();
          const got: { distance: string | null }[] = await runner.query(sql, params);
          times.push(performance.now() - t0);
          await runner.query('COMMIT');
          recalls.push(
            overlap(
              truths[i] ?? [],
              got.filter((g) => g.distance !== null).map((g) => ({ distance: Number(g.distance) }) as ScoredRow),
            ),
          );
        } finally {
          await runner.release();
        }
      }
      times.sort((a, b) => a - b);
      rows.push({
        scope: s.label,
        visible: s.visible,
        efSearch: ef,
        candidates,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        recall: recalls.reduce((a, b) => a + b, 0) / recalls.length,
      });
    }
  }
  return rows;
}
