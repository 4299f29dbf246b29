import { AtriumError, type RuntimeConfigPatch } from '../../src/client';
import { startListeningApp, type ListeningApp } from './listening-app';

async function failure(call: Promise<unknown>): Promise<AtriumError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AtriumError);
  return error as AtriumError;
}

describe('AtriumClient.updateConfig against the real service', () => {
  describe('with runtime config mutation disabled (the default)', () => {
    let app: ListeningApp;
    beforeAll(async () => {
      app = await startListeningApp();
    });
    afterAll(async () => {
      await app?.t.close();
    });

    it('throws 410 with the detail naming the variable', async () => {
      const error = await failure(app.client().updateConfig({ maxSearchResults: 50 }));
      expect(error.status).toBe(410);
      expect(error.message).toMatch(/deprecated for production/);
      expect(error.detail).toMatch(/CORE_RUNTIME_CONFIG_MUTATION_ENABLED/);
      expect(error.rejected).toBeUndefined();
    });
  });

  describe('with runtime config mutation enabled', () => {
    let app: ListeningApp;
    beforeAll(async () => {
      app = await startListeningApp({ CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true' });
    });
    afterAll(async () => {
      await app?.t.close();
    });

    it('applies camelCase fields and answers the applied names and the new config in camelCase', async () => {
      const client = app.client();
      const result = await client.updateConfig({
        maxSearchResults: 50,
        lessonSimilarityThreshold: 0.8,
        trustedSourceSites: ['docs.example'],
      });
      expect(result.applied).toEqual(['maxSearchResults', 'lessonSimilarityThreshold', 'trustedSourceSites']);
      expect(result.config).toMatchObject({ maxSearchResults: 50, lessonSimilarityThreshold: 0.8, trustedSourceSites: ['docs.example'] });
      expect((await client.memoriesHealth()).config).toMatchObject({ maxSearchResults: 50, runtimeConfigMutationEnabled: true });
    });

    it('throws 400 with detail and the rejected startup-only fields, named as the caller wrote them', async () => {
      const patch = { embeddingProvider: 'openai', lessonsEnabled: false } as RuntimeConfigPatch;
      const error = await failure(app.client().updateConfig(patch));
      expect(error).toMatchObject({
        status: 400,
        message: 'Provider and model selection is startup-only',
        rejected: ['embeddingProvider'],
      });
      expect(error.detail).toMatch(/embedding_provider/);
      expect((await app.client().memoriesHealth()).config.lessonsEnabled).toBe(true);
    });

    it('throws a plain 400 for a value out of range', async () => {
      const error = await failure(app.client().updateConfig({ duplicateThreshold: 2 }));
      expect(error).toMatchObject({ status: 400, message: 'duplicate_threshold must be a number between 0 and 1' });
      expect(error.detail).toBeUndefined();
    });
  });
});
