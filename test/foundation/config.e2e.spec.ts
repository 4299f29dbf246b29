import { createTestApp, type TestApp } from '../support/test-app';

describe('PUT /v1/memories/config while mutation is disabled (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: '' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 410 with error and a detail naming the variable, and changes nothing', async () => {
    const res = await t.http().put('/v1/memories/config').send({ lessons_enabled: false });
    expect(res.status).toBe(410);
    expect(Object.keys(res.body).sort()).toEqual(['detail', 'error']);
    expect(res.body.error).toMatch(/deprecated for production/);
    expect(res.body.detail).toContain('CORE_RUNTIME_CONFIG_MUTATION_ENABLED');
    const health = await t.http().get('/v1/memories/health');
    expect(health.body.config.lessons_enabled).toBe(true);
  });

  it('answers 410 even for startup-only fields (mutation check comes first)', async () => {
    const res = await t.http().put('/v1/memories/config').send({ embedding_provider: 'openai' });
    expect(res.status).toBe(410);
  });
});

describe('PUT /v1/memories/config with CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('rejects startup-only fields with 400 {error, detail, rejected}', async () => {
    const res = await t.http().put('/v1/memories/config').send({ embedding_provider: 'openai', llm_model: 'x', lessons_enabled: false });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/startup-only/);
    expect(res.body.detail).toMatch(/cannot change at runtime/);
    expect(res.body.rejected).toEqual(['embedding_provider', 'llm_model']);
    const health = await t.http().get('/v1/memories/health');
    expect(health.body.config.lessons_enabled).toBe(true);
  });

  it('checks startup-only fields before unknown fields', async () => {
    const res = await t.http().put('/v1/memories/config').send({ nonsense: 1, database_url: 'postgres://x' });
    expect(res.status).toBe(400);
    expect(res.body.rejected).toEqual(['database_url']);
  });

  it('rejects an unknown field with 400 naming it', async () => {
    const res = await t.http().put('/v1/memories/config').send({ lessons_enabled: false, colour: 'blue' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(/^colour is not a runtime config field/);
  });

  it.each([
    ['lessons_enabled', 'yes', /lessons_enabled must be a boolean/],
    ['lesson_similarity_threshold', 1.5, /lesson_similarity_threshold must be a number between 0 and 1/],
    ['lesson_similarity_threshold', '0.8', /must be a number/],
    ['max_search_results', 0, /max_search_results must be an integer between 1 and 100/],
    ['max_search_results', 2.5, /max_search_results must be an integer/],
    ['trusted_source_sites', 'a,b', /trusted_source_sites must be an array/],
  ])('rejects %s = %p with 400 and changes nothing', async (field, value, message) => {
    const before = (await t.http().get('/v1/memories/health')).body.config;
    const res = await t
      .http()
      .put('/v1/memories/config')
      .send({ [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    const after = (await t.http().get('/v1/memories/health')).body.config;
    expect(after).toEqual(before);
  });

  it('rejects an empty body and a non-object body', async () => {
    expect((await t.http().put('/v1/memories/config').send({})).status).toBe(400);
    const arr = await t.http().put('/v1/memories/config').set('Content-Type', 'application/json').send('[1,2]');
    expect(arr.status).toBe(400);
  });

  it('applies valid fields atomically: one bad field applies none', async () => {
    const res = await t.http().put('/v1/memories/config').send({ duplicate_threshold: 0.9, max_search_results: 500 });
    expect(res.status).toBe(400);
    const health = await t.http().get('/v1/memories/health');
    expect(health.body.config.duplicate_threshold).toBe(0.95);
  });

  it('applies valid fields with 200 {applied, config} and shows them in health at once', async () => {
    const res = await t
      .http()
      .put('/v1/memories/config')
      .send({ lessons_enabled: false, lesson_similarity_threshold: 0.8, trusted_source_sites: ['docs.internal'] });
    expect(res.status).toBe(200);
    expect(res.body.applied).toEqual(['lessons_enabled', 'lesson_similarity_threshold', 'trusted_source_sites']);
    expect(res.body.config).toMatchObject({ lessons_enabled: false, lesson_similarity_threshold: 0.8 });
    const health = await t.http().get('/v1/memories/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.config).toMatchObject({
      lessons_enabled: false,
      lesson_similarity_threshold: 0.8,
      trusted_source_sites: ['docs.internal'],
    });
  });
});
