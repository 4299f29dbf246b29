import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import { DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import { DATABASE_TARGET, type DatabaseTarget } from '../database/database-target';
import { RuntimeConfigStore, type StoredRuntimeConfig } from '../database/runtime-config.store';
import { configuredModelOnWire } from '../embeddings/embedding-identity';
import { pickEnv } from '../env/app-config';
import type { AppEnv } from '../env/env.schema';
import { ConfigChangeListener } from './config-change-listener';
import {
  mergeRuntimeChanges,
  RUNTIME_ENV_KEYS,
  runtimeConfigFromEnv,
  runtimeConfigToWire,
  validateRuntimeChanges,
  type RuntimeConfig,
} from './runtime-config';

/** The variables this service reads: the runtime fields' defaults, the poll, and the startup-only selections it reports. */
const SETTINGS_ENV_KEYS = [
  ...RUNTIME_ENV_KEYS,
  'RUNTIME_CONFIG_POLL_MS',
  'EMBEDDING_PROVIDER',
  'EMBEDDING_MODEL',
  'EMBEDDING_DIMENSIONS',
  'LLM_PROVIDER',
  'LLM_MODEL',
  'DATABASE_URL',
  'CORE_RUNTIME_CONFIG_MUTATION_ENABLED',
] as const satisfies readonly (keyof AppEnv)[];

/**
 * Owns the effective runtime config of this instance: the environment's values with the
 * changes stored in the database on top (RuntimeConfigStore), at the stored version. Features
 * call `current()` on each request, so a change takes effect on the next request.
 *
 * Every instance applies every change: a PUT writes the change and NOTIFYs in one transaction
 * and applies it here at once; the other instances hear the NOTIFY on their listener
 * connection (PostgreSQL only) and read the row. Every RUNTIME_CONFIG_POLL_MS each instance
 * also compares the stored version with its own, which bounds the delay when a notification
 * is lost or the listener is reconnecting. On the embedded database the poll is the only path:
 * its socket server runs every connection on one backend, so a NOTIFY comes back on the
 * connection that sent it, never on a listening one (docs/operations.md, "The embedded database").
 */
@Injectable()
export class SettingsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Settings');
  private readonly baseline: Readonly<RuntimeConfig>;
  private config: Readonly<RuntimeConfig>;
  /** -1 until the stored row is first read (onModuleInit, before any request). */
  private version = -1;
  private listener: ConfigChangeListener | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  /** One refresh at a time; a signal during one asks for another right after. */
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private pollFailing = false;
  private readonly env: Pick<AppEnv, (typeof SETTINGS_ENV_KEYS)[number]>;

  constructor(
    config: ConfigService<AppEnv, true>,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    private readonly store: RuntimeConfigStore,
  ) {
    this.env = pickEnv(config, SETTINGS_ENV_KEYS);
    this.baseline = Object.freeze(runtimeConfigFromEnv(this.env));
    this.config = this.baseline;
  }

  /** Loads the stored config before the first request, then keeps it current. */
  async onModuleInit(): Promise<void> {
    this.adopt(await this.store.read());
    this.pollTimer = setInterval(() => this.refresh('poll'), this.env.RUNTIME_CONFIG_POLL_MS);
    this.pollTimer.unref();
    switch (this.target.kind) {
      case 'postgres':
        this.listener = new ConfigChangeListener(this.target.directUrl, (reason) => this.refresh(reason), this.logger);
        this.listener.start();
        break;
      case 'embedded':
        break;
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.pollTimer);
    await this.listener?.stop();
    await this.refreshing;
  }

  current(): Readonly<RuntimeConfig> {
    return this.config;
  }

  /** The stored version this instance applies (0 until the first change). */
  configVersion(): number {
    return this.version;
  }

  /** Effective config in wire form, with its version and the startup-only selections for reference. */
  describe(): Record<string, unknown> {
    return {
      ...runtimeConfigToWire(this.config),
      config_version: this.version,
      embedding_provider: this.env.EMBEDDING_PROVIDER,
      embedding_model: configuredModelOnWire(this.env),
      embedding_dimensions: this.env.EMBEDDING_DIMENSIONS,
      llm_provider: this.env.LLM_PROVIDER,
      llm_model: this.env.LLM_PROVIDER === 'none' ? null : this.env.LLM_MODEL,
      database: this.env.DATABASE_URL ? 'postgres' : 'embedded',
      runtime_config_mutation_enabled: this.env.CORE_RUNTIME_CONFIG_MUTATION_ENABLED,
    };
  }

  /**
   * Apply a PUT /v1/memories/config body. Checks run in the order CONTRACT section 7 fixes and
   * all of them before the database is touched; nothing changes unless every field is valid.
   * The stored change and its `config.changed` audit event commit together (RuntimeConfigStore).
   */
  async apply(body: unknown, actor: Actor): Promise<{ applied: string[]; config: Record<string, unknown> }> {
    if (!this.env.CORE_RUNTIME_CONFIG_MUTATION_ENABLED) {
      throw new DomainError('CONFIG_MUTATION_DISABLED', 'PUT /v1/memories/config is deprecated for production and disabled', {
        detail: 'Set the environment variable CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true to allow runtime config changes.',
      });
    }
    const { applied, changes } = validateRuntimeChanges(body);
    this.adopt(await this.store.write(changes, actor));
    this.logger.log({ msg: 'runtime config changed', applied, version: this.version });
    return { applied, config: this.describe() };
  }

  /** Reads the row when its version is ahead of ours. Never rejects (a timer or an event owns it). */
  private refresh(reason: 'poll' | 'notification' | 'listening'): void {
    if (this.refreshing) {
      if (reason !== 'poll') this.refreshAgain = true;
      return;
    }
    this.refreshing = this.catchUp()
      .then(
        () => {
          if (this.pollFailing) this.logger.log({ msg: 'runtime config check works again' });
          this.pollFailing = false;
        },
        (error: Error) => {
          if (!this.pollFailing) this.logger.warn({ msg: 'runtime config check failed; retrying', reason, error: error.message });
          this.pollFailing = true;
        },
      )
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.refresh('notification');
        }
      });
  }

  private async catchUp(): Promise<void> {
    if ((await this.store.readVersion()) > this.version) this.adopt(await this.store.read());
  }

  /** Versions only move forward: a slow read never replaces a newer config. */
  private adopt(stored: StoredRuntimeConfig): void {
    if (stored.version <= this.version) return;
    const { config, ignored } = mergeRuntimeChanges(this.baseline, stored.changes);
    if (ignored.length > 0) this.logger.warn({ msg: 'stored runtime config fields ignored', ignored, version: stored.version });
    this.config = Object.freeze(config);
    this.logger.log({ msg: 'runtime config applied', version: stored.version });
    this.version = stored.version;
  }
}
