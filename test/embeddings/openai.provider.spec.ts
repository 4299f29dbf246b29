import { EmbeddingProviderError } from '../../src/embeddings/embedding-provider';
import { HashEmbeddingProvider } from '../../src/embeddings/hash.provider';
import { OpenAiEmbeddingOptions, OpenAiEmbeddingProvider, parseRetryAfter } from '../../src/embeddings/openai.provider';
import { norm } from '../../src/embeddings/vector-math';
import { FakeOpenAiServer, RecordedRequest } from '../support/fake-openai-server';

const API_KEY = 'sk-test-0123456789abcdef-SECRET';

describe('OpenAiEmbeddingProvider against a fake OpenAI-compatible server', () => {
  const server = new FakeOpenAiServer();
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.stop());

  const provider = (options: Partial<OpenAiEmbeddingOptions> = {}) =>
    new OpenAiEmbeddingProvider({
      baseUrl,
      model: 'text-embedding-3-small',
      dimensions: 32,
      apiKey: API_KEY,
      retryBaseDelayMs: 5,
      ...options,
    });

  /** Resolves to the error `promise` rejects with (fails the test if it resolves). */
  async function failure(promise: Promise<unknown>): Promise<EmbeddingProviderError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbeddingProviderError);
    return error as EmbeddingProviderError;
  }

  const goodVectors = (count: number, dims = 32) => ({
    data: Array.from({ length: count }, (_, index) => ({
      index,
      embedding: Array.from({ length: dims }, (_, d) => (d === index ? 3 : 0)),
    })),
  });

  it('sends model, input, dimensions and the bearer token, and returns unit vectors', async () => {
    const [v] = await provider().embed(['hello world']);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/embeddings');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body).toEqual({ model: 'text-embedding-3-small', input: ['hello world'], dimensions: 32 });
    expect(v).toHaveLength(32);
    expect(norm(v)).toBeCloseTo(1, 10);
  });

  it('sends no Authorization header without an API key, and no dimensions when told not to', async () => {
    server.enqueue({ body: goodVectors(1) });
    await provider({ apiKey: undefined, sendDimensions: false }).embed(['x']);
    expect(server.requests[0].headers.authorization).toBeUndefined();
    expect(server.requests[0].body).toEqual({ model: 'text-embedding-3-small', input: ['x'] });
  });

  it('normalises vectors the server returns at other lengths', async () => {
    server.enqueue({ body: { data: [{ index: 0, embedding: Array.from({ length: 32 }, () => 2) }] } });
    const [v] = await provider().embed(['x']);
    expect(norm(v)).toBeCloseTo(1, 10);
    expect(v[0]).toBeCloseTo(1 / Math.sqrt(32), 10);
  });

  it('accepts a base URL with a trailing slash or /v1', async () => {
    await provider({ baseUrl: `${baseUrl}/` }).embed(['a']);
    await provider({ baseUrl: `${baseUrl}/v1` }).embed(['b']);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
  });

  it('splits input into batches and keeps the order, using each item’s index', async () => {
    // The server answers every batch in reverse order; only `index` tells where a vector goes.
    server.setHandler('/v1/embeddings', (request: RecordedRequest) => {
      const input = (request.body as { input: string[] }).input;
      const hash = new HashEmbeddingProvider(32);
      return { body: { data: input.map((text, index) => ({ index, embedding: hash.embedOne(text) })).reverse() } };
    });
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i}`);
    const vectors = await provider({ batchSize: 3 }).embed(texts);
    expect(server.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([
      texts.slice(0, 3),
      texts.slice(3, 6),
      texts.slice(6),
    ]);
    const expected = await new HashEmbeddingProvider(32).embed(texts);
    vectors.forEach((v, i) => v.forEach((x, d) => expect(x).toBeCloseTo(expected[i][d], 12)));
  });

  it('makes no request for an empty input list', async () => {
    expect(await provider().embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries after 429 and then succeeds', async () => {
    server.enqueue(
      { status: 429, body: { error: { message: 'rate limited' } } },
      { status: 429, body: { error: { message: 'rate limited' } } },
    );
    const [v] = await provider({ maxRetries: 3 }).embed(['x']);
    expect(v).toHaveLength(32);
    expect(server.requests).toHaveLength(3);
  });

  it('retries 5xx answers and dropped connections', async () => {
    server.enqueue({ status: 503, body: { error: 'overloaded' } }, { kind: 'drop' });
    await provider({ maxRetries: 2 }).embed(['x']);
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After before retrying', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } });
    const started = performance.now();
    await provider({ retryBaseDelayMs: 1 }).embed(['x']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('caps a long Retry-After at retryMaxDelayMs', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3600' }, body: {} });
    const started = performance.now();
    await provider({ retryMaxDelayMs: 50 }).embed(['x']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("gives up with 'unavailable' once retries are exhausted", async () => {
    server.enqueue(...Array.from({ length: 3 }, () => ({ status: 500, body: { error: 'boom' } })));
    const error = await failure(provider({ maxRetries: 2 }).embed(['x']));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/after 3 attempt\(s\): HTTP 500/);
    expect(server.requests).toHaveLength(3);
  });

  it("reports a request that times out as 'unavailable'", async () => {
    server.enqueue({ kind: 'hang' }, { body: goodVectors(1), delayMs: 1000 });
    const error = await failure(provider({ timeoutMs: 100, maxRetries: 1 }).embed(['x']));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/timed out after 100 ms/);
  });

  it('counts a body that stalls after the headers as a timeout', async () => {
    server.enqueue({ kind: 'stall-body' });
    const error = await failure(provider({ timeoutMs: 100, maxRetries: 0 }).embed(['x']));
    expect(error.kind).toBe('unavailable');
  });

  it("reports a refused connection as 'unavailable'", async () => {
    const closed = new FakeOpenAiServer();
    const url = await closed.start();
    await closed.stop();
    const error = await failure(provider({ baseUrl: url, maxRetries: 1 }).embed(['x']));
    expect(error.kind).toBe('unavailable');
  });

  it.each([
    ['a body that is not JSON', { kind: 'raw' as const, body: '<html>oops</html>' }, /not JSON/],
    ['no data array', { body: { object: 'list' } }, /no `data` array/],
    ['too few embeddings', { body: { data: [] } }, /0 embeddings for 1 inputs/],
    ['a non-numeric value', { body: { data: [{ index: 0, embedding: ['a', ...new Array(31).fill(0)] }] } }, /non-numeric/],
    ['an out-of-range index', { body: { data: [{ index: 5, embedding: new Array(32).fill(1) }] } }, /invalid or duplicate index/],
    ['an all-zero vector', { body: { data: [{ index: 0, embedding: new Array(32).fill(0) }] } }, /all zeros/],
    ['base64 embeddings', { body: { data: [{ index: 0, embedding: 'AAAA' }] } }, /not an array/],
  ])("rejects %s as 'bad_response' without retrying", async (_case, reply, message) => {
    server.enqueue(reply);
    const error = await failure(provider().embed(['x']));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(message);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects vectors of the wrong dimension as 'bad_response'", async () => {
    server.enqueue({ body: goodVectors(1, 16) });
    const error = await failure(provider().embed(['x']));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/16 dimensions, configured 32/);
  });

  it("treats 4xx other than 429 as 'bad_response' without retrying", async () => {
    server.enqueue({ status: 400, body: { error: { message: 'This model does not support specifying dimensions.' } } });
    const error = await failure(provider({ maxRetries: 3 }).embed(['x']));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/HTTP 400.*does not support specifying dimensions.*sendDimensions/);
    expect(server.requests).toHaveLength(1);
  });

  it('never puts the API key in error messages, even when the server echoes it', async () => {
    server.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
    const unauthorised = await failure(provider().embed(['x']));
    server.enqueue(...Array.from({ length: 2 }, () => ({ status: 500, body: { error: `key ${API_KEY} is over quota` } })));
    const exhausted = await failure(provider({ maxRetries: 1 }).embed(['x']));
    for (const error of [unauthorised, exhausted]) {
      expect(error.message).not.toContain(API_KEY);
      expect(error.message).toContain('[redacted]');
      expect(String(error.stack)).not.toContain(API_KEY);
    }
  });

  it('aborts a request in flight when closed', async () => {
    server.enqueue({ kind: 'hang' });
    const p = provider({ timeoutMs: 10_000 });
    const pending = p.embed(['x']);
    await waitFor(() => server.requests.length === 1);
    await p.close();
    const error = await failure(pending);
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/closed/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
