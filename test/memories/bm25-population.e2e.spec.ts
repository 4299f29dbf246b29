import { parseMemoryScope } from '../../src/common/scope/parse-memory-scope';
import { MemoryAccess } from '../../src/database/access/memory-access';
import { DEFAULT_VECTOR_SEARCH_TUNING, VectorSearch } from '../../src/retrieval/vector-search';
import { newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * A filtered search (source_site or namespaces in user scope, as_of anywhere) counts BM25's
 * statistics over the rows it reads, since the statistics kept at write time
 * (bm25-statistics.e2e.spec.ts) do not split by filter. A large scope's population statistics
 * (N, average length: src/database/access/bm25-statement.ts) are then reused for a minute;
 * document frequencies stay live. Here every scope is "large" (SEARCH_EXACT_SCOPE_LIMIT=2).
 */
describe('BM25 population statistics of filtered searches in large scopes', () => {
  let t: TestApp;
  const scope = { user_id: newUser('bm25pop') };
  const zero = (): number[] => new Array(t.env.EMBEDDING_DIMENSIONS).fill(0.05);

  const ingest = async (text: string): Promise<void> => {
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ ...scope, source_site: 'test', conversation: text, skip_extraction: true });
    expect(res.body.memories_stored).toBe(1);
  };
  const scores = async (search: VectorSearch): Promise<[string, number | undefined][]> =>
    (await search.textMatches(parseMemoryScope(scope), ['ferry', 'harbour'], zero(), 100, { sourceSite: 'test' })).map((r) => [
      r.memory.id,
      r.textRank,
    ]);

  beforeAll(async () => {
    t = await createTestApp({ SEARCH_EXACT_SCOPE_LIMIT: '2' });
    await ingest('the harbour ferry leaves at dawn for the lighthouse island');
    await ingest('ferry tickets for the island are sold at the harbour kiosk');
    await ingest('the lighthouse keeper repaints the lamp room every spring');
    await ingest('a ferry timetable hangs by the harbour door');
  });
  afterAll(async () => {
    await t.close();
  });

  it('are taken once the scope is known to be large, and reused while writes change N and the average length', async () => {
    const search = t.app.get(VectorSearch);
    const before = await scores(search);
    expect(before).toHaveLength(3);
    // the vector search finds the scope above the exact limit (4 rows > 2): from now on it is large
    await search.nearestVisible(parseMemoryScope(scope), zero(), 5, { sourceSite: 'test' });
    expect(await scores(search)).toEqual(before);

    // rows without the query words: N and the average length change, the matches do not
    await ingest('the orchard pickers rest under the walnut trees after a long afternoon of work in the sun');
    await ingest('snow closed the mountain pass for the whole of the second week of january this year');
    expect(await scores(search)).toEqual(before);

    // a search without the remembered statistics reads the population again, and ranks differently
    const fresh = VectorSearch.withTuning(t.app.get(MemoryAccess), DEFAULT_VECTOR_SEARCH_TUNING);
    const recomputed = await scores(fresh);
    expect(recomputed.map(([id]) => id).sort()).toEqual(before.map(([id]) => id).sort());
    expect(recomputed).not.toEqual(before);
  });

  it('keep the document frequencies live: a new matching memory is found and counted at once', async () => {
    const search = t.app.get(VectorSearch);
    await ingest('the night ferry to the harbour was cancelled');
    const now = await scores(search);
    expect(now).toHaveLength(4);
  });
});
