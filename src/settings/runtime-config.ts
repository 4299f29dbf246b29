import type { AppEnv } from '../env/env.schema';

/** Settings that may change while the service runs (PUT /v1/memories/config). */
export interface RuntimeConfig {
  maxSearchResults: number;
  lessonsEnabled: boolean;
  lessonSimilarityThreshold: number;
  trustScoringEnabled: boolean;
  trustScoreMinThreshold: number;
  audnCandidateThreshold: number;
  duplicateThreshold: number;
  trustedSourceSites: string[];
}

type FieldCheck = (value: unknown) => string | undefined;

const unitInterval: FieldCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? undefined : 'must be a number between 0 and 1';
const boolean: FieldCheck = (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean');
const resultCap: FieldCheck = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100 ? undefined : 'must be an integer between 1 and 100';
const siteList: FieldCheck = (v) =>
  Array.isArray(v) && v.length <= 1000 && v.every((s) => typeof s === 'string' && s.trim().length > 0 && s.length <= 256)
    ? undefined
    : 'must be an array of non-empty strings (at most 1000, each at most 256 characters)';

/** Wire name -> (config key, check). The single list of runtime-mutable fields. */
export const RUNTIME_FIELDS: Record<string, { key: keyof RuntimeConfig; check: FieldCheck }> = {
  max_search_results: { key: 'maxSearchResults', check: resultCap },
  lessons_enabled: { key: 'lessonsEnabled', check: boolean },
  lesson_similarity_threshold: { key: 'lessonSimilarityThreshold', check: unitInterval },
  trust_scoring_enabled: { key: 'trustScoringEnabled', check: boolean },
  trust_score_min_threshold: { key: 'trustScoreMinThreshold', check: unitInterval },
  audn_candidate_threshold: { key: 'audnCandidateThreshold', check: unitInterval },
  duplicate_threshold: { key: 'duplicateThreshold', check: unitInterval },
  trusted_source_sites: { key: 'trustedSourceSites', check: siteList },
};

/** Fixed at startup: changing them would need new vectors or a new connection. */
export const STARTUP_ONLY_FIELDS = [
  'embedding_provider',
  'embedding_model',
  'embedding_dimensions',
  'llm_provider',
  'llm_model',
  'database_url',
] as const;

export function runtimeConfigFromEnv(env: AppEnv): RuntimeConfig {
  return {
    maxSearchResults: env.MAX_SEARCH_RESULTS,
    lessonsEnabled: env.LESSONS_ENABLED,
    lessonSimilarityThreshold: env.LESSON_SIMILARITY_THRESHOLD,
    trustScoringEnabled: env.TRUST_SCORING_ENABLED,
    trustScoreMinThreshold: env.TRUST_SCORE_MIN_THRESHOLD,
    audnCandidateThreshold: env.AUDN_CANDIDATE_THRESHOLD,
    duplicateThreshold: env.DUPLICATE_THRESHOLD,
    trustedSourceSites: [...env.TRUSTED_SOURCE_SITES],
  };
}

export function runtimeConfigToWire(config: RuntimeConfig): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [name, { key }] of Object.entries(RUNTIME_FIELDS)) {
    const value = config[key];
    wire[name] = Array.isArray(value) ? [...value] : value;
  }
  return wire;
}
