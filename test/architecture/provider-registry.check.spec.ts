import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { compileWith } from '../support/compile-snippets';

/**
 * A new embedding provider cannot be half-registered: its name goes into
 * EMBEDDING_PROVIDER_NAMES (src/env/env.schema.ts) and EMBEDDING_PROVIDERS (a Record over that
 * union) must then have its entry, or the build fails. Everything else that depends on the
 * provider (the stored identity, GET /v1/config, the default de-duplication threshold) reads
 * the table, so the registry is the only place that fails.
 */
const ENV_SCHEMA = 'src/env/env.schema.ts';
const REGISTRY = 'src/embeddings/create-embedding-provider.ts';
const DEPENDENTS = [
  'src/embeddings/embedding-identity.ts',
  'src/settings/settings.service.ts',
  'src/settings/runtime-config.ts',
  'src/embeddings/embeddings.module.ts',
  'src/embeddings/offloading-embedding-provider.ts',
];

describe('the embedding provider registry', () => {
  const schema = readFileSync(join(__dirname, '..', '..', ENV_SCHEMA), 'utf8');
  const withOllama = schema.replace(
    "export const EMBEDDING_PROVIDER_NAMES = ['local', 'hash', 'openai'] as const;",
    "export const EMBEDDING_PROVIDER_NAMES = ['local', 'hash', 'openai', 'ollama'] as const;",
  );

  it('a provider name without its entry fails to compile, in the registry and nowhere else', () => {
    expect(withOllama).not.toBe(schema);
    const diagnostics = compileWith({ [ENV_SCHEMA]: withOllama }, [REGISTRY, ...DEPENDENTS]);
    expect(diagnostics.get(REGISTRY)).toEqual([
      expect.stringMatching(/^TS2741: Property 'ollama' is missing in type .* but required in type/),
    ]);
    for (const path of DEPENDENTS) expect([path, diagnostics.get(path)]).toEqual([path, []]);
  }, 120_000);

  it('with its entry, it compiles everywhere', () => {
    const registry = readFileSync(join(__dirname, '..', '..', REGISTRY), 'utf8');
    const withEntry = registry.replace(
      'export const EMBEDDING_PROVIDERS: Readonly<Record<EmbeddingProviderName, EmbeddingProviderEntry>> = {',
      `export const EMBEDDING_PROVIDERS: Readonly<Record<EmbeddingProviderName, EmbeddingProviderEntry>> = {
  ollama: { model: { from: 'EMBEDDING_MODEL' }, duplicateThreshold: 0.95, computesInProcess: false, create: (options) => new OpenAiEmbeddingProvider(openAiOptions(options)) },`,
    );
    expect(withEntry).not.toBe(registry);
    const diagnostics = compileWith({ [ENV_SCHEMA]: withOllama, [REGISTRY]: withEntry }, [REGISTRY, ...DEPENDENTS]);
    for (const path of [REGISTRY, ...DEPENDENTS]) expect([path, diagnostics.get(path)]).toEqual([path, []]);
  }, 120_000);
});
