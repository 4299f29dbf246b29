import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

import { startTracing, type TracingHandle } from '../../src/common/telemetry/tracing-sdk';
import { OpenAiChatModel } from '../../src/llm/openai-chat.model';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Traces with an in-memory exporter: the span tree of one search and one write, their
 * GenAI memory attributes, no memory content or query text in any attribute, the caller's
 * traceparent honoured, and the traceparent sent on to the (fake) embeddings endpoint.
 */
describe('OpenTelemetry traces', () => {
  const exporter = new InMemorySpanExporter();
  const embeddings = new FakeOpenAiServer();
  let tracing: TracingHandle;
  let t: TestApp;

  const SECRET = 'quartzite marmalade reservoir';
  const QUERY = 'where is the quartzite marmalade kept';
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const PARENT_ID = '00f067aa0ba902b7';

  beforeAll(async () => {
    tracing = startTracing({ exporter, serviceName: 'atrium-test', batch: false });
    const baseUrl = await embeddings.start();
    t = await createTestApp({ EMBEDDING_PROVIDER: 'openai', EMBEDDING_BASE_URL: baseUrl, QUERY_EMBEDDING_CACHE_SIZE: '0' });
  });

  afterAll(async () => {
    await t?.close();
    await tracing?.shutdown();
    await embeddings.stop();
  });

  const spansOf = (traceId: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
  const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] =>
    spans.filter((s) => parentOf(s) === parent.spanContext().spanId);
  const one = (spans: ReadableSpan[], name: string): ReadableSpan => {
    const found = spans.filter((s) => s.name === name);
    expect(found.map((s) => s.name)).toEqual([name]);
    return found[0];
  };
  const noContentIn = (spans: ReadableSpan[]): void => {
    const words = [...SECRET.split(' '), ...QUERY.split(' ').filter((w) => w.length > 5)];
    for (const span of spans) {
      const text = JSON.stringify(span.attributes).toLowerCase();
      for (const word of words)
        expect({ span: span.name, leaked: text.includes(word) ? word : null }).toEqual({ span: span.name, leaked: null });
    }
  };

  it('traces a write: SERVER span, create_memory, the write gate, the embedding call and SQL', async () => {
    exporter.reset();
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: 'trace-user', source_site: 'tests', skip_extraction: true, conversation: `The ${SECRET} is in the cellar.` });
    expect(res.status).toBe(200);
    await tracing.forceFlush();
    const server = exporter
      .getFinishedSpans()
      .find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/v1/memories/ingest/quick');
    expect(server).toBeDefined();
    const spans = spansOf(server!.spanContext().traceId);
    expect(server!.name).toBe('POST /v1/memories/ingest/quick');
    expect(server!.attributes['http.response.status_code']).toBe(200);
    const create = one(spans, 'create_memory');
    expect(parentOf(create)).toBe(server!.spanContext().spanId);
    expect(create.attributes).toMatchObject({
      'gen_ai.operation.name': 'create_memory',
      'gen_ai.memory.store.id': 'trace-user',
      'gen_ai.memory.record.count': 1,
    });
    const gate = one(spans, 'atrium.write_gate');
    expect(parentOf(gate)).toBe(create.spanContext().spanId);
    // Two assessments: the provenance field (source_site, screened like content) and the conversation.
    const assessed = spans.filter((s) => s.name === 'atrium.write_gate.assess');
    expect(assessed).toHaveLength(2);
    for (const span of assessed) expect(span.attributes['atrium.write_gate.blocked']).toBe(false);
    const embedding = one(spans, 'embeddings text-embedding-3-small');
    expect(embedding.kind).toBe(SpanKind.CLIENT);
    expect(embedding.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.provider.name': 'openai' });
    const sql = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(sql.some((s) => String(s.attributes['db.query.text']).includes('INSERT INTO'))).toBe(true);
    noContentIn(spans);
  });

  it('traces a search under the caller traceparent: the span tree, its attributes, and no content', async () => {
    exporter.reset();
    embeddings.requests.length = 0;
    const res = await t
      .http()
      .post('/v1/memories/search')
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .send({ user_id: 'trace-user', query: QUERY });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    await tracing.forceFlush();
    const spans = spansOf(TRACE_ID);

    // The SERVER span continues the caller's trace.
    const server = one(spans, 'POST /v1/memories/search');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(parentOf(server)).toBe(PARENT_ID);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/memories/search',
      'http.response.status_code': 200,
    });

    const search = one(spans, 'search_memory');
    expect(parentOf(search)).toBe(server.spanContext().spanId);
    expect(search.attributes).toEqual({
      'gen_ai.operation.name': 'search_memory',
      'gen_ai.memory.store.id': 'trace-user',
      'gen_ai.memory.record.count': 1,
      'atrium.scope.kind': 'user',
      'atrium.search.mode': 'hybrid',
      'atrium.lesson_check.safe': true,
    });
    const children = childrenOf(spans, search).map((s) => s.name);
    expect(children).toEqual(
      expect.arrayContaining(['embeddings text-embedding-3-small', 'atrium.vector_search', 'atrium.bm25', 'atrium.lesson_check']),
    );

    // The statements are children of the vector search and of BM25.
    for (const name of ['atrium.vector_search', 'atrium.bm25']) {
      const sql = childrenOf(spans, one(spans, name));
      expect(sql.length).toBeGreaterThan(0);
      for (const statement of sql) {
        expect(statement.kind).toBe(SpanKind.CLIENT);
        expect(statement.attributes['db.system.name']).toBe('postgresql');
        expect(typeof statement.attributes['db.query.summary']).toBe('string');
      }
    }
    expect(one(spans, 'atrium.lesson_check').attributes).toMatchObject({
      'atrium.lesson_check.safe': true,
      'atrium.lesson_check.matched_count': 0,
    });

    // The embeddings request carried the trace on: same trace id, the embedding span as parent.
    const embedding = one(spans, 'embeddings text-embedding-3-small');
    const sent = embeddings.requests.filter((r) => r.path === '/v1/embeddings');
    expect(sent).toHaveLength(1);
    expect(sent[0].headers.traceparent).toBe(`00-${TRACE_ID}-${embedding.spanContext().spanId}-01`);

    noContentIn(spans);
  });

  it('starts a new trace when the request has no traceparent, and ignores a malformed one', async () => {
    exporter.reset();
    const res = await t
      .http()
      .post('/v1/memories/search/fast')
      .set('traceparent', 'not-a-traceparent')
      .send({ user_id: 'trace-user', query: QUERY });
    expect(res.status).toBe(200);
    await tracing.forceFlush();
    const server = exporter.getFinishedSpans().find((s) => s.name === 'POST /v1/memories/search/fast');
    expect(server).toBeDefined();
    expect(parentOf(server!)).toBeUndefined();
    expect(one(spansOf(server!.spanContext().traceId), 'search_memory').attributes['atrium.search.mode']).toBe('fast');
  });

  it('traces delete and update as delete_memory and update_memory with the record id', async () => {
    const stored = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: 'trace-user', source_site: 'tests', skip_extraction: true, conversation: 'A memory to change and delete.' });
    const id = stored.body.stored_memory_ids[0] as string;
    exporter.reset();
    expect(
      (
        await t
          .http()
          .patch(`/v1/memories/${id}`)
          .send({ user_id: 'trace-user', metadata: { k: 1 } })
      ).status,
    ).toBe(200);
    expect((await t.http().delete(`/v1/memories/${id}`).query({ user_id: 'trace-user' })).status).toBe(200);
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(one(spans, 'update_memory').attributes).toMatchObject({
      'gen_ai.operation.name': 'update_memory',
      'gen_ai.memory.record.id': id,
    });
    expect(one(spans, 'delete_memory').attributes).toMatchObject({
      'gen_ai.operation.name': 'delete_memory',
      'gen_ai.memory.record.id': id,
    });
  });

  it('sends the traceparent on to the chat endpoint, under a chat span', async () => {
    exporter.reset();
    const chat = new OpenAiChatModel({ baseUrl: await embeddings.start(), model: 'tiny-chat', timeoutMs: 5000, maxRetries: 0 });
    embeddings.enqueue({ path: '/v1/chat/completions', body: { choices: [{ message: { content: '{"facts":[]}' } }] } });
    const outer = trace.getTracer('test');
    await outer.startActiveSpan('caller', async (span) => {
      await chat.completeJson([{ role: 'user', content: 'hello' }]);
      span.end();
    });
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const span = one(spans, 'chat tiny-chat');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'tiny-chat' });
    const sent = embeddings.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    expect(sent?.headers.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });
});
