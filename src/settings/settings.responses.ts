import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { EMBEDDING_PROVIDER_NAMES } from '../env/env.schema';
import { RUNTIME_FIELDS, STARTUP_ONLY_FIELDS } from './runtime-config';

/**
 * Response shapes of GET /health, GET /v1/memories/health and PUT /v1/memories/config
 * (src/settings/*, CONTRACT section 7), and the config route's request body.
 */

@ApiSchema({ name: 'HealthOk' })
export class HealthOkDoc {
  @ApiProperty({ type: String, enum: ['ok'], example: 'ok' })
  status: 'ok';
}

@ApiSchema({ name: 'HealthUnavailable', description: 'The database did not answer within 2 s.' })
export class HealthUnavailableDoc {
  @ApiProperty({ type: String, enum: ['unavailable'], example: 'unavailable' })
  status: 'unavailable';

  @ApiProperty({ type: String, example: 'Database unavailable' })
  error: string;
}

const unitInterval = { type: Number, minimum: 0, maximum: 1 } as const;

/** The runtime-mutable fields (src/settings/runtime-config.ts RUNTIME_FIELDS), all optional. */
@ApiSchema({
  name: 'RuntimeConfigUpdate',
  description:
    'At least one runtime field. Unknown fields, wrong types or ranges: 400 naming the field; nothing is applied unless every field is valid. ' +
    'Startup-only fields (embedding_provider, embedding_model, embedding_dimensions, llm_provider, llm_model, database_url): 400 with `rejected`.',
})
export class RuntimeConfigUpdateDoc {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Upper bound on any search `limit`.', example: 20 })
  max_search_results?: number;

  @ApiPropertyOptional({ type: Boolean, example: false })
  lessons_enabled?: boolean;

  @ApiPropertyOptional({ ...unitInterval, example: 0.8 })
  lesson_similarity_threshold?: number;

  @ApiPropertyOptional({ type: Boolean, example: true })
  trust_scoring_enabled?: boolean;

  @ApiPropertyOptional({ ...unitInterval, example: 0.3 })
  trust_score_min_threshold?: number;

  @ApiPropertyOptional({ ...unitInterval, example: 0.7 })
  audn_candidate_threshold?: number;

  @ApiPropertyOptional({ ...unitInterval, example: 0.95 })
  duplicate_threshold?: number;

  @ApiPropertyOptional({
    type: [String],
    minLength: 1,
    maxLength: 256,
    maxItems: 1000,
    description: 'Sites (and their subdomains) whose writes get trust score 1.',
    example: ['docs.example.com'],
  })
  trusted_source_sites?: string[];
}

/** SettingsService.describe(): the runtime fields plus the startup-only selections, for reference. */
@ApiSchema({ name: 'EffectiveConfig', description: 'The effective runtime config, plus the startup-only selections for reference.' })
export class EffectiveConfigDoc {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 100 })
  max_search_results: number;

  @ApiProperty({ type: Boolean, example: true })
  lessons_enabled: boolean;

  @ApiProperty({ ...unitInterval, example: 0.75 })
  lesson_similarity_threshold: number;

  @ApiProperty({ type: Boolean, example: true })
  trust_scoring_enabled: boolean;

  @ApiProperty({ ...unitInterval, example: 0.3 })
  trust_score_min_threshold: number;

  @ApiProperty({ ...unitInterval, example: 0.7 })
  audn_candidate_threshold: number;

  @ApiProperty({ ...unitInterval, example: 0.95 })
  duplicate_threshold: number;

  @ApiProperty({ type: [String], example: [] })
  trusted_source_sites: string[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Version of the shared runtime config this instance applies: 0 until the first change, one more per PUT (on any instance).',
    example: 0,
  })
  config_version: number;

  @ApiProperty({ type: String, enum: EMBEDDING_PROVIDER_NAMES, example: 'local' })
  embedding_provider: string;

  @ApiProperty({ type: String, description: 'EMBEDDING_MODEL for `openai`, else the provider name.', example: 'local' })
  embedding_model: string;

  @ApiProperty({ type: 'integer', example: 384 })
  embedding_dimensions: number;

  @ApiProperty({ type: String, enum: ['none', 'openai'], example: 'none' })
  llm_provider: string;

  @ApiProperty({ type: String, nullable: true, description: 'null when llm_provider is `none`.', example: null })
  llm_model: string | null;

  @ApiProperty({ type: String, enum: ['postgres', 'embedded'], example: 'embedded' })
  database: string;

  @ApiProperty({ type: Boolean, description: 'CORE_RUNTIME_CONFIG_MUTATION_ENABLED.', example: false })
  runtime_config_mutation_enabled: boolean;
}

@ApiSchema({ name: 'ServiceHealth' })
export class ServiceHealthDoc {
  @ApiProperty({ type: String, enum: ['ok'], example: 'ok' })
  status: 'ok';

  @ApiProperty({ type: EffectiveConfigDoc })
  config: EffectiveConfigDoc;
}

@ApiSchema({ name: 'ConfigApplied' })
export class ConfigAppliedDoc {
  @ApiProperty({
    type: [String],
    enum: Object.keys(RUNTIME_FIELDS),
    description: 'The fields applied, in the order sent.',
    example: ['lessons_enabled', 'lesson_similarity_threshold'],
  })
  applied: string[];

  @ApiProperty({ type: EffectiveConfigDoc })
  config: EffectiveConfigDoc;
}

/** PUT /v1/memories/config while CORE_RUNTIME_CONFIG_MUTATION_ENABLED is not `true` (CONTRACT section 7, check 1). */
@ApiSchema({ name: 'ConfigMutationDisabledError' })
export class ConfigMutationDisabledDoc {
  @ApiProperty({ type: String, example: 'PUT /v1/memories/config is deprecated for production and disabled' })
  error: string;

  @ApiProperty({
    type: String,
    description: 'Names the environment variable that enables the route.',
    example: 'Set the environment variable CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true to allow runtime config changes.',
  })
  detail: string;
}

/** PUT /v1/memories/config with startup-only fields (CONTRACT section 7, check 2). */
@ApiSchema({ name: 'ConfigStartupOnlyError' })
export class ConfigStartupOnlyDoc {
  @ApiProperty({ type: String, example: 'Provider and model selection is startup-only' })
  error: string;

  @ApiProperty({
    type: String,
    example: 'These fields are fixed at startup and cannot change at runtime: embedding_model. Set them in the environment and restart.',
  })
  detail: string;

  @ApiProperty({
    type: [String],
    enum: STARTUP_ONLY_FIELDS,
    description: 'The startup-only fields found in the body.',
    example: ['embedding_model'],
  })
  rejected: string[];
}
