/**
 * recall@10 of search/fast and search against the exact answer, and the row-count check
 * (a search returns min(limit, visible rows): no overfiltering).
 *
 * Ground truth is computed before the service starts, in SQL on the harness's own
 * connection, over the caller's visible set written by the same helper
 * (applyMemoryScope), with index scans disabled (SET LOCAL enable_indexscan = off): a
 * plain exact sort by distance, no HNSW. Query vectors are the service's own `hash`
 * embedding of the query text, so the truth is about the vector the service will search with.
 * - search/fast: the exact top 10 by cosine distance. A returned row counts when its
 *   distance is within the 10th exact distance (ties at the boundary are not misses).
 * - search: the exact inputs of the hybrid ranking (exact top 40 by distance, exact top 40
 *   by text rank) fused with the service's own fuseAndRescore at a fixed reference time;
 *   recall is the overlap with its top 10.
 */
import type { DataSource, SelectQueryBuilder } from 'typeorm';

import type { MemoryScope } from '../src/common/scope/memory-scope';
import { bm25Statement } from '../src/database/access/bm25-statement';
import { applyMemoryScope } from '../src/database/access/visibility';
import { MemoryEntity } from '../src/database/entities/memory.entity';
import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { fuseAndRescore, searchableWords } from '../src/retrieval/ranking';
import type { ScoredRow } from '../src/retrieval/vector-search';
import { CORPUS_NOW } from './corpus';
import { vectorText } from './seed';

const K = 10;
const CANDIDATES = 40;

export interface RecallQuery {
  text: string;
  /** Exact top CANDIDATES by distance: id -> distance. */
  truthDistances: Map<string, number>;
  /** The 10 exact nearest ids. */
  truthTop: string[];
  /** Distance of the 10th nearest (or the last, when fewer are visible). */
  kthDistance: number;
  /** The exact hybrid top 10. */
  truthHybrid: string[];
}

export interface RecallCase {
  label: string;
  scope: MemoryScope;
  /** What goes on the wire (user_id, workspace_id, agent_id, agent_scope). */
  wire: Record<string, unknown>;
  visible: number;
  queries: RecallQuery[];
}

export interface RecallResult {
  label: string;
  cases: number;
  visibleMin: number;
  visibleMax: number;
  queries: number;
  fastRecall: number;
  fastMinRecall: number;
  hybridRecall: number;
  hybridMinRecall: number;
  /** Responses whose count was not min(10, visible). */
  countMismatches: number;
  errors: number;
}

async function exactVector(ds: DataSource, scope: MemoryScope, q: string): Promise<{ id: string; distance: number }[]> {
  return ds.transaction(async (manager) => {
    await manager.query('SET LOCAL enable_indexscan = off');
    const qb = applyMemoryScope(manager.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope, 'read')
      .select('m.id', 'id')
      .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
      .setParameter('q', q)
      .orderBy('distance', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .limit(CANDIDATES);
    const rows = await qb.getRawMany<{ id: string; distance: string }>();
    return rows.map((r) => ({ id: r.id, distance: Number(r.distance) }));
  });
}

type Scored = { id: string; distance: number; text_rank?: string; importance: number; created_at: Date; trust_score: number };

async function exactHybrid(ds: DataSource, scope: MemoryScope, text: string, q: string): Promise<string[]> {
  const columns = (qb: SelectQueryBuilder<MemoryEntity>) =>
    qb
      .select('m.id', 'id')
      .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
      .addSelect('m.importance', 'importance')
      .addSelect('m.created_at', 'created_at')
      .addSelect('m.trust_score', 'trust_score')
      .setParameter('q', q);
  const vector = await ds.transaction(async (manager) => {
    await manager.query('SET LOCAL enable_indexscan = off');
    return columns(applyMemoryScope(manager.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope, 'read'))
      .orderBy('distance', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .limit(CANDIDATES)
      .getRawMany<Scored>();
  });
  const words = searchableWords(text);
  const textRows = words.length ? await bm25Rows(ds, scope, words, q) : [];
  const toScored = (r: Scored): ScoredRow => ({
    memory: {
      id: r.id,
      importance: Number(r.importance),
      createdAt: new Date(r.created_at),
      trustScore: Number(r.trust_score),
    } as MemoryEntity,
    distance: Number(r.distance),
    textRank: r.text_rank === undefined ? undefined : Number(r.text_rank),
  });
  return fuseAndRescore(vector.map(toScored), textRows.map(toScored), new Date(CORPUS_NOW), text)
    .slice(0, K)
    .map((r) => r.memory.id);
}

/** The BM25 candidates, through the service's own statement (its visibility is checked elsewhere). */
async function bm25Rows(ds: DataSource, scope: MemoryScope, words: string[], q: string): Promise<Scored[]> {
  const scoped = (alias: string) => applyMemoryScope(ds.getRepository(MemoryEntity).createQueryBuilder(alias), alias, scope, 'read');
  const bm25 = bm25Statement(scoped('t'), scoped('p'), words, words.join(' | '), CANDIDATES);
  return ds
    .getRepository(MemoryEntity)
    .createQueryBuilder('m')
    .innerJoin(`(${bm25.sql})`, 'c', 'c.id = m.id AND m.user_id = :vis_userId')
    .select('m.id', 'id')
    .addSelect('m.embedding <=> CAST(:q AS vector)', 'distance')
    .addSelect('m.importance', 'importance')
    .addSelect('m.created_at', 'created_at')
    .addSelect('m.trust_score', 'trust_score')
    .addSelect('c.text_rank', 'text_rank')
    .setParameters({ ...bm25.parameters, q })
    .orderBy('c.text_rank', 'DESC')
    .addOrderBy('m.id', 'ASC')
    .getRawMany<Scored>();
}

export async function countVisible(ds: DataSource, scope: MemoryScope): Promise<number> {
  const row = await applyMemoryScope(ds.getRepository(MemoryEntity).createQueryBuilder('m'), 'm', scope, 'read')
    .select('count(*)', 'n')
    .getRawOne<{ n: string }>();
  return Number(row?.n ?? 0);
}

/** Ground truth for one caller and its query texts. */
export async function buildCase(
  ds: DataSource,
  label: string,
  scope: MemoryScope,
  wire: Record<string, unknown>,
  texts: string[],
  dims: number,
): Promise<RecallCase> {
  const embedder = new HashEmbeddingProvider(dims);
  const queries: RecallQuery[] = [];
  for (const text of texts) {
    const q = vectorText(embedder.embedOne(text));
    const exact = await exactVector(ds, scope, q);
    const top = exact.slice(0, K);
    queries.push({
      text,
      truthDistances: new Map(exact.map((r) => [r.id, r.distance])),
      truthTop: top.map((r) => r.id),
      kthDistance: top.length ? top[top.length - 1].distance : Infinity,
      truthHybrid: await exactHybrid(ds, scope, text, q),
    });
  }
  return { label, scope, wire, visible: await countVisible(ds, scope), queries };
}

async function post(url: string, body: unknown): Promise<{ ok: boolean; ids: string[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) return { ok: false, ids: [] };
  const json = (await res.json()) as { memories: { id: string }[] };
  return { ok: true, ids: json.memories.map((m) => m.id) };
}

/** Ask the running service and compare with the truth. */
export async function measureRecall(baseUrl: string, label: string, cases: RecallCase[]): Promise<RecallResult> {
  const fast: number[] = [];
  const hybrid: number[] = [];
  let countMismatches = 0;
  let errors = 0;
  for (const c of cases) {
    const expected = Math.min(K, c.visible);
    for (const q of c.queries) {
      const body = { ...c.wire, query: q.text, limit: K, reference_time: new Date(CORPUS_NOW).toISOString() };
      const f = await post(`${baseUrl}/v1/memories/search/fast`, body);
      const h = await post(`${baseUrl}/v1/memories/search`, body);
      if (!f.ok || !h.ok) {
        errors++;
        continue;
      }
      if (f.ids.length !== expected) countMismatches++;
      if (h.ids.length !== expected) countMismatches++;
      if (expected === 0) continue;
      const good = f.ids.filter((id) => {
        const d = q.truthDistances.get(id);
        return d !== undefined && d <= q.kthDistance + 1e-6;
      }).length;
      fast.push(Math.min(1, good / expected));
      const truth = new Set(q.truthHybrid);
      hybrid.push(h.ids.filter((id) => truth.has(id)).length / Math.max(1, q.truthHybrid.length));
    }
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  return {
    label,
    cases: cases.length,
    visibleMin: Math.min(...cases.map((c) => c.visible)),
    visibleMax: Math.max(...cases.map((c) => c.visible)),
    queries: cases.reduce((n, c) => n + c.queries.length, 0),
    fastRecall: mean(fast),
    fastMinRecall: fast.length ? Math.min(...fast) : NaN,
    hybridRecall: mean(hybrid),
    hybridMinRecall: hybrid.length ? Math.min(...hybrid) : NaN,
    countMismatches,
    errors,
  };
}
