import { Inject, Injectable, Logger } from '@nestjs/common';

import { DomainError } from '../common/errors/domain-error';
import { APP_ENV } from '../env/app-env.token';
import type { AppEnv } from '../env/env.schema';
import {
  RUNTIME_FIELDS,
  runtimeConfigFromEnv,
  runtimeConfigToWire,
  STARTUP_ONLY_FIELDS,
  type RuntimeConfig,
} from './runtime-config';

/**
 * Owns the effective runtime config. Features call `current()` on each request, so a change
 * applied here takes effect on the next request. The config lives in this process only:
 * every instance of a horizontally scaled deployment must be sent the same change.
 */
@Injectable()
export class SettingsService {
  private readonly logger = new Logger('Settings');
  private config: Readonly<RuntimeConfig>;

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {
    this.config = Object.freeze(runtimeConfigFromEnv(env));
  }

  current(): Readonly<RuntimeConfig> {
    return this.config;
  }

  /** Effective config in wire form, with the startup-only selections for reference. */
  describe(): Record<string, unknown> {
    return {
      ...runtimeConfigToWire(this.config),
      embedding_provider: this.env.EMBEDDING_PROVIDER,
      embedding_model: this.env.EMBEDDING_PROVIDER === 'openai' ? this.env.EMBEDDING_MODEL : this.env.EMBEDDING_PROVIDER,
      embedding_dimensions: this.env.EMBEDDING_DIMENSIONS,
      llm_provider: this.env.LLM_PROVIDER,
      llm_model: this.env.LLM_PROVIDER === 'none' ? null : this.env.LLM_MODEL,
      database: this.env.DATABASE_URL ? 'postgres' : 'embedded',
      runtime_config_mutation_enabled: this.env.CORE_RUNTIME_CONFIG_MUTATION_ENABLED,
    };
  }

  /**
   * Apply a PUT /v1/memories/config body. Checks run in the order CONTRACT section 7 fixes;
   * nothing changes unless every field is valid.
   */
  apply(body: unknown): { applied: string[]; config: Record<string, unknown> } {
    if (!this.env.CORE_RUNTIME_CONFIG_MUTATION_ENABLED) {
      throw new DomainError('CONFIG_MUTATION_DISABLED', 'PUT /v1/memories/config is deprecated for production and disabled', {
        detail: 'Set the environment variable CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true to allow runtime config changes.',
      });
    }
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
    const next: RuntimeConfig = { ...this.config, trustedSourceSites: [...this.config.trustedSourceSites] };
    for (const name of fields) {
      const field = RUNTIME_FIELDS[name];
      if (!field) {
        throw new DomainError('VALIDATION_FAILED', `${name} is not a runtime config field (known: ${Object.keys(RUNTIME_FIELDS).join(', ')})`);
      }
      const value = (body as Record<string, unknown>)[name];
      const problem = field.check(value);
      if (problem) throw new DomainError('VALIDATION_FAILED', `${name} ${problem}`);
      (next as unknown as Record<string, unknown>)[field.key] = Array.isArray(value) ? value.map((s: string) => s.trim()) : value;
    }
    this.config = Object.freeze(next);
    this.logger.log({ msg: 'runtime config changed', applied: fields });
    return { applied: fields, config: this.describe() };
  }
}
