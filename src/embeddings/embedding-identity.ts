import type { AppEnv } from '../env/env.schema';
import type { EmbeddingProvider } from './embedding-provider';
import { HASH_EMBEDDING_MODEL } from './hash.provider';
import { LOCAL_EMBEDDING_MODEL } from './local/local.provider';

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

/** The identity the configured provider will have, without loading it. */
export function configuredIdentity(
  env: Pick<AppEnv, 'EMBEDDING_PROVIDER' | 'EMBEDDING_MODEL' | 'EMBEDDING_DIMENSIONS'>,
): EmbeddingIdentity {
  const model = (() => {
    switch (env.EMBEDDING_PROVIDER) {
      case 'local':
        return LOCAL_EMBEDDING_MODEL;
      case 'hash':
        return HASH_EMBEDDING_MODEL;
      case 'openai':
        return env.EMBEDDING_MODEL;
    }
  })();
  return `${env.EMBEDDING_PROVIDER}/${model}/${env.EMBEDDING_DIMENSIONS}`;
}
