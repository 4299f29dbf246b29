/**
 * `npm run eval:retrieval -- --data ../shared/data/locomo-dev.json [options]`
 *
 * Starts Atrium on a fresh database, stores every LoCoMo dialog turn verbatim over HTTP (one
 * user per conversation), asks every question of categories 1-4 against /search and
 * /search/fast (limit 10), and prints recall@5, recall@10 and hit@5 per category next to an
 * Okapi BM25 baseline over the same turns. Writes docs/retrieval.md unless --out ''.
 */
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { Bm25Index } from './bm25';
import { loadLocomo, type Conversation, type Question } from './locomo';
import { byCategory, type QuestionResult } from './metrics';
import { renderReport, renderTable, type RetrievalRun } from './report';
import { mapBounded, postJson, startEvalService } from './service';

const USAGE = `npm run eval:retrieval -- --data <locomo json> [options]
  --data <file>            LoCoMo conversations (e.g. ../shared/data/locomo-dev.json)
  --provider <name>        EMBEDDING_PROVIDER of the service (default local)
  --db <kind>              embedded (default without DATABASE_URL) or postgres (needs DATABASE_URL)
  --conversations <n>      only the first n conversations
  --questions <n>          only the first n questions of each conversation
  --concurrency <n>        requests in flight while ingesting and asking (default 8)
  --service-env <list>     extra environment of the service, e.g. "SEARCH_EXACT_SCOPE_LIMIT=0,LOG_LEVEL=info"
  --out <file>             report file (default docs/retrieval.md; '' = none)
  --min-recall10 <f>       exit 1 when /search recall@10 over all questions is below f`;

interface Options {
  data: string;
  provider: string;
  postgresUrl: string | undefined;
  conversations: number;
  questions: number;
  concurrency: number;
  out: string;
  minRecall10: number;
  serviceEnv: Record<string, string>;
}

function parseArgs(argv: string[]): Options {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const eq = arg.indexOf('=');
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    if (eq > 0) values.set(arg.slice(2, eq), arg.slice(eq + 1));
    else values.set(arg.slice(2), argv[++i] ?? '');
  }
  const known = ['data', 'provider', 'db', 'conversations', 'questions', 'concurrency', 'out', 'min-recall10', 'service-env'];
  for (const key of values.keys()) if (!known.includes(key)) throw new Error(`unknown option --${key}\n${USAGE}`);
  const data = values.get('data');
  if (!data) throw new Error(`--data is required\n${USAGE}`);
  const db = values.get('db') ?? (process.env.DATABASE_URL ? 'postgres' : 'embedded');
  if (db !== 'embedded' && db !== 'postgres') throw new Error(`--db must be embedded or postgres`);
  if (db === 'postgres' && !process.env.DATABASE_URL) throw new Error('--db postgres needs DATABASE_URL');
  const int = (key: string, fallback: number) => {
    const n = Number(values.get(key) ?? fallback);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${key} must be a positive integer`);
    return n;
  };
  return {
    data,
    provider: values.get('provider') ?? 'local',
    postgresUrl: db === 'postgres' ? process.env.DATABASE_URL : undefined,
    conversations: int('conversations', Number.MAX_SAFE_INTEGER),
    questions: int('questions', Number.MAX_SAFE_INTEGER),
    concurrency: int('concurrency', 8),
    out: values.has('out') ? (values.get('out') as string) : 'docs/retrieval.md',
    minRecall10: Number(values.get('min-recall10') ?? 0),
    serviceEnv: Object.fromEntries(
      (values.get('service-env') ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    ),
  };
}

interface IngestAnswer {
  stored_memory_ids: string[];
  memories_skipped: number;
}
interface SearchAnswer {
  memories: { id: string }[];
}

interface ConversationRun {
  stored: number;
  skipped: number;
  search: QuestionResult[];
  fast: QuestionResult[];
  bm25: QuestionResult[];
}

async function runConversation(
  url: string,
  conversation: Conversation,
  questions: Question[],
  concurrency: number,
): Promise<ConversationRun> {
  const userId = `locomo-${conversation.id}`;
  const diaOf = new Map<string, string>();
  let skipped = 0;
  await mapBounded(conversation.turns, concurrency, async (turn) => {
    const answer = await postJson<IngestAnswer>(`${url}/v1/memories/ingest/quick`, {
      user_id: userId,
      source_site: 'locomo',
      conversation: turn.content,
      skip_extraction: true,
      metadata: { dia_id: turn.diaId },
    });
    for (const id of answer.stored_memory_ids) diaOf.set(id, turn.diaId);
    skipped += answer.memories_skipped;
  });
  const ask = async (route: string, q: Question): Promise<QuestionResult> => {
    const answer = await postJson<SearchAnswer>(`${url}/v1/memories/${route}`, { user_id: userId, query: q.question, limit: 10 });
    return { category: q.category, evidence: q.evidence, ranked: answer.memories.map((m) => diaOf.get(m.id) ?? '?') };
  };
  const search = await mapBounded(questions, concurrency, (q) => ask('search', q));
  const fast = await mapBounded(questions, concurrency, (q) => ask('search/fast', q));
  const index = new Bm25Index(
    conversation.turns.map((t) => t.diaId),
    conversation.turns.map((t) => t.content),
  );
  const bm25 = questions.map((q) => ({ category: q.category, evidence: q.evidence, ranked: index.search(q.question, 10) }));
  return { stored: diaOf.size, skipped, search, fast, bm25 };
}

function gitCommit(): string {
  try {
    const hash = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const conversations = loadLocomo(options.data).slice(0, options.conversations);
  const started = Date.now();
  const service = await startEvalService(options.postgresUrl, { ...options.serviceEnv, EMBEDDING_PROVIDER: options.provider });
  const runs: ConversationRun[] = [];
  try {
    for (const conversation of conversations) {
      const t0 = Date.now();
      const questions = conversation.questions.slice(0, options.questions);
      const run = await runConversation(service.url, conversation, questions, options.concurrency);
      runs.push(run);
      const seconds = (Date.now() - t0) / 1000;
      console.log(
        `${conversation.id}: ${run.stored}/${conversation.turns.length} turns stored (${run.skipped} skipped), ${questions.length} questions, ${seconds.toFixed(1)} s`,
      );
    }
  } finally {
    await service.stop();
  }
  const run: RetrievalRun = {
    provider: options.provider,
    database: service.database,
    commit: gitCommit(),
    date: new Date().toISOString(),
    data: options.data,
    conversations: conversations.map((c) => c.id),
    turns: conversations.reduce((s, c) => s + c.turns.length, 0),
    stored: runs.reduce((s, r) => s + r.stored, 0),
    skipped: runs.reduce((s, r) => s + r.skipped, 0),
    droppedEvidence: conversations.reduce((s, c) => s + c.droppedEvidence, 0),
    seconds: (Date.now() - started) / 1000,
    systems: {
      '/search': byCategory(runs.flatMap((r) => r.search)),
      '/search/fast': byCategory(runs.flatMap((r) => r.fast)),
      'BM25 baseline': byCategory(runs.flatMap((r) => r.bm25)),
    },
  };
  console.log('');
  console.log(renderTable(run));
  if (options.out) {
    writeFileSync(options.out, renderReport(run));
    console.log(`\nwrote ${options.out}`);
  }
  const searchAll = run.systems['/search'].get('all');
  if (options.minRecall10 > 0 && (searchAll?.recallAt10 ?? 0) < options.minRecall10) {
    console.error(`/search recall@10 ${searchAll?.recallAt10.toFixed(3)} is below ${options.minRecall10}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
