/**
 * `npm run eval:encoder -- --data ../shared/data/locomo-dev.json [--provider local|hash]`
 *
 * The vector side alone, without a database: embeds every turn and question with the
 * provider and ranks each conversation's turns by cosine (what /search/fast does exactly on
 * scopes of this size, before de-duplication). Prints recall@5/@10 per category and the
 * median embedding cost per query. For iterating on the encoder in seconds.
 */
import { performance } from 'node:perf_hooks';

import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { LocalEmbeddingProvider } from '../src/embeddings/local/local.provider';
import { loadLocomo } from './locomo';
import { byCategory, type QuestionResult } from './metrics';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function main(): Promise<void> {
  const data = arg('data', '');
  if (!data) throw new Error('--data is required');
  const dims = Number(arg('dimensions', '384'));
  const provider =
    arg('provider', 'local') === 'hash' ? new HashEmbeddingProvider(dims) : await LocalEmbeddingProvider.create({ dimensions: dims });
  const results: QuestionResult[] = [];
  const costs: number[] = [];
  for (const conversation of loadLocomo(data)) {
    const turns = await provider.embed(conversation.turns.map((t) => t.content));
    for (const q of conversation.questions) {
      const t0 = performance.now();
      const [v] = await provider.embed([q.question]);
      costs.push(performance.now() - t0);
      const ranked = turns
        .map((t, i) => ({ id: conversation.turns[i].diaId, s: dot(t, v) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((r) => r.id);
      results.push({ category: q.category, evidence: q.evidence, ranked });
    }
  }
  for (const [key, f] of byCategory(results)) {
    console.log(
      `${String(key).padEnd(4)} n=${String(f.questions).padEnd(4)} recall@5 ${f.recallAt5.toFixed(3)}  recall@10 ${f.recallAt10.toFixed(3)}  hit@5 ${f.hitAt5.toFixed(3)}`,
    );
  }
  costs.sort((a, b) => a - b);
  console.log(
    `embedding cost per query: median ${costs[Math.floor(costs.length / 2)].toFixed(3)} ms, p95 ${costs[Math.floor(costs.length * 0.95)].toFixed(3)} ms (${costs.length} queries)`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
