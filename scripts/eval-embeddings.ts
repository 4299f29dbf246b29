/**
 * Prints how a provider separates the labelled pairs in test/fixtures/embedding-pairs.json at
 * the lesson threshold (0.75). Usage:
 *   npm run eval:embeddings -- [local|hash] [--dimensions 384] [--pairs path] [--worst 5]
 * Exits with 1 when a paraphrase falls below or an unrelated pair reaches the threshold (the
 * hash provider always does: it has no notion of synonyms).
 */
import {
  defaultPairsPath,
  LabelSummary,
  LESSON_MATCH_THRESHOLD,
  loadLabelledPairs,
  scorePairs,
  summarise,
} from '../eval/embeddings/pair-evaluation';
import { EmbeddingProvider } from '../src/embeddings/embedding-provider';
import { HashEmbeddingProvider } from '../src/embeddings/hash.provider';
import { LocalEmbeddingProvider } from '../src/embeddings/local/local.provider';

interface Args {
  provider: 'local' | 'hash';
  dimensions: number;
  pairsPath: string;
  worst: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { provider: 'local', dimensions: 384, pairsPath: defaultPairsPath(), worst: 5 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === 'local' || arg === 'hash') args.provider = arg;
    else if (arg === '--dimensions') args.dimensions = Number(value());
    else if (arg === '--pairs') args.pairsPath = value();
    else if (arg === '--worst') args.worst = Number(value());
    else throw new Error(`unknown argument ${arg}; usage: eval-embeddings [local|hash] [--dimensions N] [--pairs path] [--worst N]`);
  }
  return args;
}

async function createProvider(args: Args): Promise<EmbeddingProvider> {
  if (args.provider === 'hash') return new HashEmbeddingProvider(args.dimensions);
  return LocalEmbeddingProvider.create({ dimensions: args.dimensions, log: (line) => console.log(line) });
}

const f = (x: number) => x.toFixed(3);

function printSummary(s: LabelSummary): void {
  const wrong = s.wrongSide === null ? `${s.atOrAbove} at/above` : `${s.wrongSide} wrong side`;
  console.log(
    `${s.label.padEnd(10)} n=${String(s.count).padStart(3)}  min ${f(s.min)}  p10 ${f(s.p10)}  ` +
      `median ${f(s.median)}  p90 ${f(s.p90)}  max ${f(s.max)}  ${wrong}`,
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const pairs = loadLabelledPairs(args.pairsPath);
  const provider = await createProvider(args);
  const started = performance.now();
  const scored = await scorePairs(provider, pairs);
  const elapsed = performance.now() - started;
  const summaries = summarise(scored, LESSON_MATCH_THRESHOLD, args.worst);

  console.log(`provider ${provider.name} (${provider.model}), ${provider.dimensions} dims, ${pairs.length} pairs from ${args.pairsPath}`);
  console.log(`threshold ${LESSON_MATCH_THRESHOLD}; embedded in ${elapsed.toFixed(1)} ms\n`);
  summaries.forEach(printSummary);
  const para = summaries.find((s) => s.label === 'paraphrase')!;
  const unrelated = summaries.find((s) => s.label === 'unrelated')!;
  console.log(`\ngap (min paraphrase - max unrelated): ${f(para.min - unrelated.max)}`);
  for (const s of summaries) {
    if (s.worst.length === 0) continue;
    const heading = s.label === 'related' ? 'nearest the threshold' : 'closest to the wrong side';
    console.log(`\n${heading}, ${s.label}:`);
    for (const p of s.worst) console.log(`  ${f(p.cosine)}  "${p.a}"  ~  "${p.b}"`);
  }
  await provider.close?.();
  const wrong = (para.wrongSide ?? 0) + (unrelated.wrongSide ?? 0);
  if (wrong > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
