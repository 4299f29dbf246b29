import type { AppEnv } from '../env/env.schema';
import { EMBEDDING_PROVIDERS } from './create-embedding-provider';
import type { EmbeddingProvider } from './embedding-provider';

/**
 * Which embedder made a vector: `provider/model/dimensions`, e.g.
 * `local/glove-6b-100d-sif-v2/384`. Stored on every row that has a vector (memories and
 * lessons, column `embedded_by`), written in the same statement as the vector.
 *
 * Per row rather than once per database, because a re-embed is a long run over live data:
 * with the label beside each vector, a run interrupted anywhere leaves every row saying what
 * made it, resuming is "the rows not yet labelled with the target", and rows an older
 * instance writes while the run goes on are found by the next startup check instead of
 * silently mixing with the others.
 */
export type EmbeddingIdentity = string;

export function identityOf(provider: Pick<EmbeddingProvider, 'name' | 'model' | 'dimensions'>): EmbeddingIdentity {
  return `${provider.name}/${provider.model}/${provider.dimensions}`;
}

type ProviderEnv = Pick<AppEnv, 'EMBEDDING_PROVIDER' | 'EMBEDDING_MODEL' | 'EMBEDDING_DIMENSIONS'>;

/** The identity the configured provider will have, without loading it. */
export function configuredIdentity(env: ProviderEnv): EmbeddingIdentity {
  return `${env.EMBEDDING_PROVIDER}/${configuredModel(env)}/${env.EMBEDDING_DIMENSIONS}`;
}

/** The configured provider's model: its own, or EMBEDDING_MODEL for a provider that takes one. */
export function configuredModel(env: Pick<ProviderEnv, 'EMBEDDING_PROVIDER' | 'EMBEDDING_MODEL'>): string {
  const model = EMBEDDING_PROVIDERS[env.EMBEDDING_PROVIDER].model;
  return model.from === 'EMBEDDING_MODEL' ? env.EMBEDDING_MODEL : model.name;
}

/** `embedding_model` of GET /v1/config: EMBEDDING_MODEL for a provider that takes one, else the provider's name. */
export function configuredModelOnWire(env: Pick<ProviderEnv, 'EMBEDDING_PROVIDER' | 'EMBEDDING_MODEL'>): string {
  return EMBEDDING_PROVIDERS[env.EMBEDDING_PROVIDER].model.from === 'EMBEDDING_MODEL' ? env.EMBEDDING_MODEL : env.EMBEDDING_PROVIDER;
}
