/**
 * The synthetic corpus, fully determined by (seed, scale).
 *
 * - Users: sizes follow a Zipf-like (Pareto, alpha 0.6) law: at scale 1, ~360 users for 1M
 *   memories, ~300 of them under 1,000 memories and 3 over 100,000. `scale` multiplies every
 *   size (minimum 5), so the shape is kept at small scales.
 * - Each user keeps ~40% of its memories personal (user scope) and the rest in 1 to 6
 *   workspaces of 2 to 20 agents, the first workspace the largest (halving sizes).
 * - Workspace visibility: 50% workspace, 30% agent_only, 20% restricted with 0 to 5 grants to
 *   other agents of the workspace. The owning agent is uniform over the workspace's agents.
 * - Text: every user has a handful of topics out of 200; a memory is a sentence of words of
 *   one of its user's topics (Zipf within the topic) joined by English function words, plus a
 *   few common words and a number; 10% of memories mix in a second topic. Queries are 3 to 5
 *   topic words, some phrased as a question. The embedding is the service's own `hash` embedding of
 *   that text, so the vectors are clustered (by topic) with noise (common words, numbers,
 *   3-gram collisions), and a query *text* made of topic words embeds, on the server, to a
 *   vector that lands in the same clusters: recall is measured on realistic queries.
 */
import { Rng, zipfCumulative } from './random';

export const TOPICS = 200;
const TOPIC_WORDS = 30;
const COMMON_WORDS = 300;
const SOURCES = ['chat.example', 'mail.example', 'docs.example', 'calendar.example', 'notes.example'];
/** Fixed "now" of the corpus: created_at values lie in the year before it. */
export const CORPUS_NOW = Date.UTC(2026, 10, 1);

const PARETO_ALPHA = 0.6;
const PARETO_MIN = 40;
const PARETO_CAP = 180_000;
const FULL_SCALE_USERS = 359;
const MIN_USER_SIZE = 5;

export interface WorkspacePlan {
  id: string;
  agents: string[];
  size: number;
}

export interface UserPlan {
  index: number;
  userId: string;
  size: number;
  personal: number;
  workspaces: WorkspacePlan[];
  topics: number[];
}

export interface Vocabulary {
  topics: string[][];
  common: string[];
}

export interface CorpusPlan {
  seed: number;
  scale: number;
  users: UserPlan[];
  total: number;
  vocabulary: Vocabulary;
}

/** Column arrays of one multi-row INSERT (unnest of parameter arrays). */
export interface MemoryBatch {
  id: string[];
  userId: string[];
  workspaceId: (string | null)[];
  agentId: (string | null)[];
  visibility: (string | null)[];
  content: string[];
  importance: number[];
  sourceSite: string[];
  trustScore: number[];
  createdAt: string[];
  grants: { memoryId: string; userId: string; workspaceId: string; grantee: string; grantor: string }[];
}

const SYLLABLES = (() => {
  const out: string[] = [];
  for (const c of 'bdfgklmnprstvz') for (const v of ['a', 'e', 'i', 'o', 'u', 'ai', 'ou']) out.push(c + v);
  return out;
})();

function makeVocabulary(seed: number): Vocabulary {
  const rng = new Rng(seed ^ 0x5eed);
  const seen = new Set<string>();
  const word = (syllables: number): string => {
    for (;;) {
      let w = '';
      for (let i = 0; i < syllables; i++) w += rng.pick(SYLLABLES);
      if (rng.next() < 0.5) w += rng.pick(['n', 'r', 's', 'l', 'k', 't']);
      if (!seen.has(w)) {
        seen.add(w);
        return w;
      }
    }
  };
  const common = Array.from({ length: COMMON_WORDS }, () => word(2));
  const topics = Array.from({ length: TOPICS }, () => Array.from({ length: TOPIC_WORDS }, () => word(rng.int(2, 3))));
  return { topics, common };
}

/**
 * `minLargest` lifts the largest user to at least that many memories (CI uses it so that a
 * small corpus still has scopes above the exact-search cutover, exercising the HNSW plan).
 */
export function planCorpus(scale: number, seed: number, minLargest = 0): CorpusPlan {
  const rng = new Rng(seed);
  const users: UserPlan[] = [];
  let total = 0;
  for (let i = 0; i < FULL_SCALE_USERS; i++) {
    const full = Math.min(PARETO_CAP, Math.floor(PARETO_MIN * Math.pow((i + 0.5) / FULL_SCALE_USERS, -1 / PARETO_ALPHA)));
    const size = Math.max(MIN_USER_SIZE, Math.round(full * scale), i === 0 ? minLargest : 0);
    const shared = size >= 20 ? Math.round(size * 0.6) : 0;
    const workspaceCount = shared === 0 ? 0 : Math.min(6, 1 + Math.floor(Math.log2(1 + shared / 2000)));
    const workspaces: WorkspacePlan[] = [];
    let left = shared;
    for (let w = 0; w < workspaceCount; w++) {
      const wsSize = w === workspaceCount - 1 ? left : Math.round(shared / 2 ** (w + 1));
      left -= wsSize;
      const agents = Array.from({ length: rng.int(2, 20) }, () => rng.uuid());
      workspaces.push({ id: rng.uuid(), agents, size: wsSize });
    }
    const topicCount = Math.min(40, Math.max(3, Math.round(3 + Math.log2(size))));
    const topics = Array.from({ length: topicCount }, () => rng.int(0, TOPICS - 1));
    users.push({ index: i, userId: `bench-user-${String(i).padStart(4, '0')}`, size, personal: size - shared, workspaces, topics });
    total += size;
  }
  return { seed, scale, users, total, vocabulary: makeVocabulary(seed) };
}

const topicZipf = zipfCumulative(TOPIC_WORDS, 0.9);
const commonZipf = zipfCumulative(COMMON_WORDS, 1.0);

function topicWords(rng: Rng, vocabulary: Vocabulary, topic: number, n: number): string[] {
  const words = vocabulary.topics[topic];
  return Array.from({ length: n }, () => words[rng.zipfIndex(topicZipf)]);
}

/**
 * English function words, most frequent first. Real memories are sentences: these words are
 * shared by texts of every topic, as in natural language, and give the vector space the
 * common component real text has. Without them every topic's vectors are orthogonal to every
 * other topic's, a space no embedding model produces and where HNSW cannot navigate between
 * clusters (measured: recall@10 0.95 with some queries at 0 on the largest scopes).
 */
const FUNCTION_WORDS = [
  'the',
  'to',
  'and',
  'a',
  'of',
  'in',
  'is',
  'for',
  'on',
  'that',
  'with',
  'my',
  'it',
  'at',
  'was',
  'we',
  'be',
  'i',
  'this',
  'our',
  'have',
  'from',
  'by',
  'are',
  'will',
  'not',
  'or',
  'an',
  'about',
  'next',
  'after',
  'before',
  'every',
  'new',
  'all',
  'more',
  'when',
  'should',
  'needs',
  'wants',
];
const functionZipf = zipfCumulative(FUNCTION_WORDS.length, 1.0);
const QUESTIONS = ['what', 'when', 'where', 'who', 'how', 'which'];

/** Topic words with function words between them, as a sentence would have. */
function sentence(rng: Rng, words: string[], functionRate: number): string[] {
  const out: string[] = [];
  for (const word of words) {
    if (rng.next() < functionRate) out.push(FUNCTION_WORDS[rng.zipfIndex(functionZipf)]);
    out.push(word);
  }
  return out;
}

function memoryText(rng: Rng, vocabulary: Vocabulary, user: UserPlan, userTopicZipf: Float64Array): string {
  const topic = user.topics[rng.zipfIndex(userTopicZipf)];
  const words = topicWords(rng, vocabulary, topic, rng.int(5, 8));
  if (rng.next() < 0.1) words.push(...topicWords(rng, vocabulary, user.topics[rng.int(0, user.topics.length - 1)], 2));
  const common = Array.from({ length: rng.int(1, 3) }, () => vocabulary.common[rng.zipfIndex(commonZipf)]);
  const [first, ...rest] = sentence(rng, words, 0.6);
  return [first, ...common, ...rest, String(rng.int(100, 99_999))].join(' ');
}

/** A search text for `user`: 3 to 5 words of one of its topics, phrased as a short question. */
export function queryText(rng: Rng, vocabulary: Vocabulary, user: UserPlan): string {
  const topic = user.topics[rng.zipfIndex(zipfCumulative(user.topics.length, 1))];
  const words = sentence(rng, topicWords(rng, vocabulary, topic, rng.int(3, 5)), 0.4);
  return (rng.next() < 0.5 ? [rng.pick(QUESTIONS), ...words] : words).join(' ');
}

/** A fresh memory text for ingest load (the same generator as the corpus). */
export function ingestText(rng: Rng, vocabulary: Vocabulary, user: UserPlan): string {
  return memoryText(rng, vocabulary, user, zipfCumulative(user.topics.length, 1));
}

function emptyBatch(): MemoryBatch {
  return {
    id: [],
    userId: [],
    workspaceId: [],
    agentId: [],
    visibility: [],
    content: [],
    importance: [],
    sourceSite: [],
    trustScore: [],
    createdAt: [],
    grants: [],
  };
}

/** One user's rows, produced one at a time from its own generator. */
class UserStream {
  private readonly rng: Rng;
  private readonly topicZipf: Float64Array;
  private readonly left: number[];
  private readonly slots: (WorkspacePlan | null)[];
  emitted = 0;

  constructor(
    readonly user: UserPlan,
    seed: number,
    private readonly vocabulary: Vocabulary,
  ) {
    this.rng = new Rng(seed * 7919 + user.index + 1);
    this.topicZipf = zipfCumulative(user.topics.length, 1);
    this.slots = [null, ...user.workspaces];
    this.left = [user.personal, ...user.workspaces.map((w) => w.size)];
  }

  /** Appends the next row (personal or one of the workspaces, in proportion to what is left). */
  emit(batch: MemoryBatch, createdAt: string): void {
    const rng = this.rng;
    const remaining = this.user.size - this.emitted;
    let pick = Math.floor(rng.next() * remaining);
    let slot = 0;
    while (pick >= this.left[slot]) pick -= this.left[slot++];
    this.left[slot]--;
    this.emitted++;
    const ws = this.slots[slot];
    const id = rng.uuid();
    let agent: string | null = null;
    let visibility: string | null = null;
    if (ws) {
      agent = rng.pick(ws.agents);
      const r = rng.next();
      visibility = r < 0.5 ? 'workspace' : r < 0.8 ? 'agent_only' : 'restricted';
      if (visibility === 'restricted') {
        const others = ws.agents.filter((a) => a !== agent);
        const grantCount = Math.min(others.length, rng.int(0, 5));
        for (let g = 0; g < grantCount; g++) {
          const grantee = others.splice(rng.int(0, others.length - 1), 1)[0];
          batch.grants.push({ memoryId: id, userId: this.user.userId, workspaceId: ws.id, grantee, grantor: agent });
        }
      }
    }
    batch.id.push(id);
    batch.userId.push(this.user.userId);
    batch.workspaceId.push(ws ? ws.id : null);
    batch.agentId.push(agent);
    batch.visibility.push(visibility);
    batch.content.push(memoryText(rng, this.vocabulary, this.user, this.topicZipf));
    batch.importance.push(Math.round((0.3 + 0.6 * rng.next()) * 100) / 100);
    batch.sourceSite.push(rng.pick(SOURCES));
    batch.trustScore.push(rng.next() < 0.8 ? 0.7 : 1);
    batch.createdAt.push(createdAt);
  }
}

/**
 * The corpus in insert batches, in time order: users' rows are interleaved as they would
 * arrive (stride scheduling: each user emits at a rate proportional to its size), and
 * created_at grows with the position over the year before CORPUS_NOW. So the heap looks like
 * a table filled over time: one user's rows are spread over many pages, not packed together
 * (which would flatter the exact plan). Each user's rows come from its own seeded generator.
 */
export function* memoryBatches(plan: CorpusPlan, batchSize: number): Generator<MemoryBatch> {
  const streams = plan.users.map((u) => new UserStream(u, plan.seed, plan.vocabulary));
  // min-heap of [virtual time of the stream's next row, stream index]
  const heap: [number, number][] = [];
  const push = (item: [number, number]) => {
    heap.push(item);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (heap[parent][0] <= heap[i][0]) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0];
    const last = heap.pop() as [number, number];
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  };
  streams.forEach((s, i) => push([0.5 / s.user.size, i]));
  const year = 365 * 86_400_000;
  let batch = emptyBatch();
  for (let position = 0; heap.length > 0; position++) {
    const [, index] = pop();
    const stream = streams[index];
    stream.emit(batch, new Date(CORPUS_NOW - year + Math.floor(((position + 0.5) / plan.total) * year)).toISOString());
    if (stream.emitted < stream.user.size) push([(stream.emitted + 0.5) / stream.user.size, index]);
    if (batch.id.length >= batchSize) {
      yield batch;
      batch = emptyBatch();
    }
  }
  if (batch.id.length > 0) yield batch;
}
