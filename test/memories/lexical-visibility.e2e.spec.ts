import { parseMemoryScope } from '../../src/common/scope/parse-memory-scope';
import { VectorSearch } from '../../src/retrieval/vector-search';
import { newId, newUser } from '../support/ids';
import { quickIngest } from '../support/quick-ingest';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * BM25 statistics come from the caller's visible rows only (src/memories/bm25-sql.ts). A word
 * that only a hidden memory contains must neither bring that memory back nor move the scores of
 * what the caller does see; adding hidden rows full of the caller's query words must not either.
 */
describe('lexical ranking under visibility', () => {
  let t: TestApp;
  const user = newUser('bm25');
  const workspace = newId();
  const writer = newId();
  const reader = newId();
  const RARE = 'quokkafish';

  const ingest = (agent: string, text: string, visibility: string): Promise<string> =>
    quickIngest(t, { user, workspace, agent }, text, visibility);
  const readerScope = () => parseMemoryScope({ user_id: user, workspace_id: workspace, agent_id: reader });
  const search = async (query: string) =>
    (await t.http().post('/v1/memories/search').send({ user_id: user, workspace_id: workspace, agent_id: reader, query, limit: 100 }))
      .body as {
      memories: { id: string; score: number }[];
    };
  const lexicalScores = async (words: string[]) => {
    const rows = await t.app.get(VectorSearch).textMatches(readerScope(), words, new Array(t.env.EMBEDDING_DIMENSIONS).fill(0.05), 100);
    return rows.map((r) => [r.memory.id, r.textRank]);
  };

  const visible: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    visible.push(await ingest(writer, 'the harbour ferry leaves at dawn for the lighthouse island', 'workspace'));
    visible.push(await ingest(writer, 'ferry tickets for the island are sold at the harbour kiosk', 'workspace'));
    visible.push(await ingest(reader, 'the lighthouse keeper repaints the lamp room every spring', 'workspace'));
    await ingest(writer, `the ${RARE} was spotted near the harbour`, 'agent_only');
  });
  afterAll(async () => {
    await t.close();
  });

  it('does not return a memory whose only matching word the caller cannot see', async () => {
    const answer = await search(RARE);
    expect(answer.memories.map((m) => m.id).every((id) => visible.includes(id))).toBe(true);
    expect(await lexicalScores([RARE])).toEqual([]);
  });

  it('returns only visible memories when the query mixes visible and hidden words', async () => {
    const ids = (await lexicalScores(['harbour', RARE])).map(([id]) => id);
    expect(ids.sort()).toEqual([visible[0], visible[1]].sort());
  });

  it('keeps the BM25 scores of visible memories unchanged when hidden memories with the same words are added', async () => {
    const before = await lexicalScores(['harbour', 'ferry', 'lighthouse', RARE]);
    const searchBefore = await search('harbour ferry lighthouse');
    for (let i = 0; i < 5; i++) await ingest(writer, `harbour ferry lighthouse note ${i} about ${RARE} number ${i * 7}`, 'agent_only');
    await ingest(newId(), `harbour ferry lighthouse from a third agent, private`, 'restricted');
    expect(await lexicalScores(['harbour', 'ferry', 'lighthouse', RARE])).toEqual(before);
    expect((await search('harbour ferry lighthouse')).memories).toEqual(searchBefore.memories);
  });

  it('gives the writer, who sees its private rows, all six memories with the rare word', async () => {
    const scope = parseMemoryScope({ user_id: user, workspace_id: workspace, agent_id: writer });
    const rows = await t.app.get(VectorSearch).textMatches(scope, [RARE], new Array(t.env.EMBEDDING_DIMENSIONS).fill(0.05), 100);
    expect(rows.length).toBe(6);
  });
});
