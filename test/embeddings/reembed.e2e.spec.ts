import { createApp } from '../../src/app/bootstrap';
import { reembed } from '../../src/database/maintenance/reembed';
import { DatabaseStartupError } from '../../src/database/pgvector';
import { prepareDatabase } from '../../src/database/prepare-database';
import { identityOf } from '../../src/embeddings/embedding-identity';
import type { EmbeddingProvider } from '../../src/embeddings/embedding-provider';
import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';
import { loadEnv } from '../../src/env/env.schema';
import { newUser } from '../support/ids';
import { createTestApp, type TestApp } from '../support/test-app';

/** Another embedder at the same dimension: hashing of the reversed text (different vectors, same shape). */
class ReversedHashProvider implements EmbeddingProvider {
  readonly name = 'reversed';
  readonly model = 'reversed-hash-v1';
  private readonly inner: HashEmbeddingProvider;
  constructor(readonly dimensions: number) {
    this.inner = new HashEmbeddingProvider(dimensions);
  }
  async embed(texts: string[]): Promise<number[][]> {
    return this.inner.embed(texts.map((t) => [...t].reverse().join('')));
  }
}

const MEMORIES = [
  'the boiler was serviced in March',
  'Dana prefers tea to coffee',
  'the car needs new winter tyres',
  'the garden shed key is under the blue pot',
  'passport renewal is due next spring',
  'the dentist appointment moved to Thursday',
  'piano lessons start at five on Mondays',
];

describe('npm run reembed (re-embedding stored vectors with another embedder)', () => {
  let t: TestApp;
  let target: ReversedHashProvider;
  const user = newUser('reembed');

  const labels = async (table: string): Promise<Record<string, number>> => {
    const rows: { embedded_by: string; n: string }[] = await t.dataSource.query(
      `SELECT embedded_by, count(*) AS n FROM ${table} GROUP BY embedded_by`,
    );
    return Object.fromEntries(rows.map((r) => [r.embedded_by, Number(r.n)]));
  };
  const startupCheck = (identity: string) =>
    prepareDatabase(t.dataSource, {
      where: 'test',
      embeddingDimensions: t.env.EMBEDDING_DIMENSIONS,
      embeddingIdentity: identity,
      migrate: false,
    });

  beforeAll(async () => {
    t = await createTestApp();
    target = new ReversedHashProvider(t.env.EMBEDDING_DIMENSIONS);
    for (const text of MEMORIES) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'test', conversation: text, skip_extraction: true });
      expect(res.body.memories_stored).toBe(1);
    }
    const lesson = await t
      .http()
      .post('/v1/memories/lessons/report')
      .send({ user_id: user, pattern: 'advice about moving money abroad', severity: 'low' });
    expect(lesson.status).toBeLessThan(300);
  });
  afterAll(async () => {
    await t.close();
  });

  it('labels every vector written by the service with the embedder that made it', async () => {
    expect(await labels('memories')).toEqual({ 'hash/feature-hash-v1/384': MEMORIES.length });
    expect(await labels('lessons')).toEqual({ 'hash/feature-hash-v1/384': 1 });
  });

  it('stops after the batches it was allowed, leaving converted rows labelled and the rest untouched', async () => {
    const result = await reembed(t.dataSource, target, { batchSize: 3, maxBatches: 1 });
    expect(result).toEqual({ identity: identityOf(target), updated: 3, complete: false });
    expect(await labels('memories')).toEqual({ 'hash/feature-hash-v1/384': 4, 'reversed/reversed-hash-v1/384': 3 });
  });

  it('keeps serving searches while the run is half done', async () => {
    const res = await t.http().post('/v1/memories/search').send({ user_id: user, query: 'winter tyres for the car' });
    expect(res.status).toBe(200);
    expect(res.body.memories[0].content).toBe('the car needs new winter tyres');
  });

  it('refuses startup, in one line naming the fix, while any stored vector is another embedder’s', async () => {
    const attempt = startupCheck(identityOf(target));
    await expect(attempt).rejects.toBeInstanceOf(DatabaseStartupError);
    await expect(attempt).rejects.toThrow(
      /^stored vectors were made by hash\/feature-hash-v1\/384 but the configured embedder is reversed\/reversed-hash-v1\/384: run `npm run reembed`[^\n]*$/,
    );
  });

  it('resumes where it stopped and finishes: every vector is the new embedder’s own', async () => {
    const result = await reembed(t.dataSource, target, { batchSize: 3 });
    expect(result).toEqual({ identity: identityOf(target), updated: MEMORIES.length - 3 + 1, complete: true });
    expect(await labels('memories')).toEqual({ 'reversed/reversed-hash-v1/384': MEMORIES.length });
    expect(await labels('lessons')).toEqual({ 'reversed/reversed-hash-v1/384': 1 });
    const rows: { content: string; embedding: string }[] = await t.dataSource.query(
      'SELECT content, CAST(embedding AS text) AS embedding FROM memories WHERE user_id = $1',
      [user],
    );
    const expected = await target.embed(rows.map((r) => r.content));
    rows.forEach((row, i) => {
      const stored = JSON.parse(row.embedding) as number[];
      stored.forEach((x, d) => expect(x).toBeCloseTo(expected[i][d], 5));
    });
    await expect(startupCheck(identityOf(target))).resolves.toBeUndefined();
    await expect(startupCheck('hash/feature-hash-v1/384')).rejects.toThrow(/made by reversed\/reversed-hash-v1\/384/);
  });

  it('a second run has nothing left to do', async () => {
    expect(await reembed(t.dataSource, target, { batchSize: 3 })).toEqual({ identity: identityOf(target), updated: 0, complete: true });
  });
});

/**
 * The whole app, on PostgreSQL only: on the embedded database a failed start leaves its
 * embedded server to the process exit (main.ts exits), which a test process cannot do. The
 * check itself (prepareDatabase) is exercised on both databases above.
 */
const describeOnPostgres = process.env.DATABASE_URL ? describe : () => undefined;
describeOnPostgres('startup against vectors of another embedder', () => {
  it('stops the app with the one-line message', async () => {
    const t = await createTestApp();
    try {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: newUser('mismatch'), source_site: 'test', conversation: 'one stored memory', skip_extraction: true });
      expect(res.body.memories_stored).toBe(1);
      await t.app.close();
      const env = loadEnv({
        LOG_LEVEL: 'silent',
        ...t.db.env,
        EMBEDDING_PROVIDER: 'openai',
        EMBEDDING_BASE_URL: 'http://127.0.0.1:9',
        EMBEDDING_MODEL: 'another-model',
      });
      const attempt = createApp(env).then((app) => app.init());
      await expect(attempt).rejects.toThrow(
        'stored vectors were made by hash/feature-hash-v1/384 but the configured embedder is openai/another-model/384: run `npm run reembed`',
      );
    } finally {
      await t.db.drop();
    }
  });
});
