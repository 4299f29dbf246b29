import { DomainError } from '../common/errors/domain-error';
import { normaliseReal } from '../common/validation/real-number';
import { EMBEDDING_PROVIDERS } from '../embeddings/create-embedding-provider';
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

/** The variables that give the runtime fields their starting values. */
export const RUNTIME_ENV_KEYS = [
  'MAX_SEARCH_RESULTS',
  'LESSONS_ENABLED',
  'LESSON_SIMILARITY_THRESHOLD',
  'TRUST_SCORING_ENABLED',
  'TRUST_SCORE_MIN_THRESHOLD',
  'AUDN_CANDIDATE_THRESHOLD',
  'DUPLICATE_THRESHOLD',
  'TRUSTED_SOURCE_SITES',
] as const satisfies readonly (keyof AppEnv)[];

export function runtimeConfigFromEnv(env: Pick<AppEnv, (typeof RUNTIME_ENV_KEYS)[number] | 'EMBEDDING_PROVIDER'>): RuntimeConfig {
  return {
    maxSearchResults: env.MAX_SEARCH_RESULTS,
    lessonsEnabled: env.LESSONS_ENABLED,
    lessonSimilarityThreshold: env.LESSON_SIMILARITY_THRESHOLD,
    trustScoringEnabled: env.TRUST_SCORING_ENABLED,
    trustScoreMinThreshold: env.TRUST_SCORE_MIN_THRESHOLD,
    audnCandidateThreshold: env.AUDN_CANDIDATE_THRESHOLD,
    duplicateThreshold: env.DUPLICATE_THRESHOLD ?? defaultDuplicateThreshold(env.EMBEDDING_PROVIDER),
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

/** Runtime fields in wire form, as PUT sends them and the database stores them. */
export type RuntimeConfigChanges = Record<string, unknown>;

/**
 * Checks a PUT /v1/memories/config body after the mutation switch (CONTRACT section 7, checks
 * 2 and 3, in that order): startup-only fields, then an empty body, unknown fields and wrong
 * types or ranges. Returns the changes in wire form, site names trimmed, in the order sent.
 */
export function validateRuntimeChanges(body: unknown): { applied: string[]; changes: RuntimeConfigChanges } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('VALIDATION_FAILED', 'body must be a JSON object of runtime config fields');
  }
  const fields = Object.keys(body);
  const rejected = fields.filter((name) => (STARTUP_ONLY_FIELDS as readonly string[]).includes(name));
  if (rejected.length > 0) {
    throw new DomainError('CONFIG_STARTUP_ONLY_FIELDS', 'Provider and model selection is startup-only', {
      detail: `These fields are fixed at startup and cannot change at runtime: ${rejected.join(', ')}. Set them in the environment and restart.`,
      rejected,
    });
  }
  if (fields.length === 0) {
    throw new DomainError('VALIDATION_FAILED', `body must contain at least one of: ${Object.keys(RUNTIME_FIELDS).join(', ')}`);
  }
  const changes: RuntimeConfigChanges = {};
  for (const name of fields) {
    // Own properties only: `toString`, `constructor` or `__proto__` are unknown fields, not
    // something inherited from Object.prototype.
    const field = Object.hasOwn(RUNTIME_FIELDS, name) ? RUNTIME_FIELDS[name] : undefined;
    if (!field) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `${name} is not a runtime config field (known: ${Object.keys(RUNTIME_FIELDS).join(', ')})`,
      );
    }
    const value = (body as Record<string, unknown>)[name];
    const problem = field.check(value);
    if (problem) throw new DomainError('VALIDATION_FAILED', `${name} ${problem}`);
    changes[name] = Array.isArray(value) ? value.map((site: string) => site.trim()) : normaliseReal(value);
  }
  return { applied: fields, changes };
}

/**
 * The effective config: the environment's values with the stored changes on top. A stored
 * field this code does not know (written by a newer version) or no longer accepts is left out
 * and named in `ignored`, so one bad row cannot stop an instance from applying the rest.
 */
export function mergeRuntimeChanges(base: RuntimeConfig, changes: RuntimeConfigChanges): { config: RuntimeConfig; ignored: string[] } {
  const config: RuntimeConfig = { ...base, trustedSourceSites: [...base.trustedSourceSites] };
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(changes)) {
    const field = Object.hasOwn(RUNTIME_FIELDS, name) ? RUNTIME_FIELDS[name] : undefined;
    if (!field || field.check(value) !== undefined) {
      ignored.push(name);
      continue;
    }
    (config as unknown as Record<string, unknown>)[field.key] = Array.isArray(value) ? [...(value as string[])] : value;
  }
  return { config, ignored };
}

/** The provider's calibrated de-duplication threshold (EMBEDDING_PROVIDERS, create-embedding-provider.ts). */
export function defaultDuplicateThreshold(provider: AppEnv['EMBEDDING_PROVIDER']): number {
  return EMBEDDING_PROVIDERS[provider].duplicateThreshold;
}
