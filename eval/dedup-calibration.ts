/**
 * `npm run eval:dedup -- --data ../shared/data/locomo-dev.json [--provider local|hash]`
 *
 * How similar different sentences of one real chat get under a provider: every pair of turns
 * of a conversation whose texts differ (each `[session date] Speaker: text`, as stored), and
 * the same pairs without the date prefix (the same words said in two sessions). Prints the
 * highest cosines and how many turns a de-duplication threshold would drop, for choosing
 * DUPLICATE_THRESHOLD per provider.
 */
import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { LocalEmbeddingProvider } from '../src/embeddings/local/local.provider';
import { loadLocomo } from './locomo';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const THRESHOLDS = [0.9, 0.95, 0.97, 0.98, 0.99, 0.995];

async function main(): Promise<void> {
  const data = arg('data', '');
  if (!data) throw new Error('--data is required');
  const providerName = arg('provider', 'local');
  const dims = 384;
  const provider = providerName === 'hash' ? new HashEmbeddingProvider(dims) : await LocalEmbeddingProvider.create({ dimensions: dims });
  const top: { cos: number; a: string; b: string }[] = [];
  // turns that an earlier, different turn of the same chat would have made a duplicate, per threshold
  const dropped = new Map<number, number>(THRESHOLDS.map((t) => [t, 0]));
  let turns = 0;
  for (const conversation of loadLocomo(data)) {
    const texts = conversation.turns.map((t) => t.content);
    const vectors = await provider.embed(texts);
    turns += texts.length;
    for (let i = 0; i < texts.length; i++) {
      let best = -1;
      for (let j = 0; j < i; j++) {
        if (texts[i] === texts[j]) continue;
        let c = 0;
        for (let d = 0; d < dims; d++) c += vectors[i][d] * vectors[j][d];
        if (c > best) best = c;
        if (c > 0.95) top.push({ cos: c, a: texts[i], b: texts[j] });
      }
      for (const t of THRESHOLDS) if (best >= t) dropped.set(t, (dropped.get(t) ?? 0) + 1);
    }
  }
  top.sort((x, y) => y.cos - x.cos);
  console.log(`provider ${provider.name}/${provider.model}/${dims}: ${turns} turns`);
  for (const t of THRESHOLDS) console.log(`threshold ${t}: ${dropped.get(t)} real turns would be dropped as duplicates`);
  console.log(`highest cosine between different turns: ${top[0]?.cos.toFixed(4) ?? '< 0.95'}`);
  for (const p of top.slice(0, 5))
    console.log(`  ${p.cos.toFixed(4)}  ${JSON.stringify(p.a.slice(0, 90))}  ~  ${JSON.stringify(p.b.slice(0, 90))}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
