import type { ConfigService } from '@nestjs/config';

import type { AppEnv } from './env.schema';

/**
 * The validated environment as Nest code reads it: @nestjs/config's ConfigService, typed by
 * AppEnv (`config.get('PORT', { infer: true })`). loadEnv() validates process.env before Nest
 * starts (main.ts, and the test harness with its overrides); EnvModule hands the result to
 * ConfigModule, the one way settings are read inside the app.
 */
export type AppConfig = ConfigService<AppEnv, true>;

/** Several variables at once, typed, for code that builds a value from many of them. */
export function pickEnv<K extends keyof AppEnv>(config: AppConfig, keys: readonly K[]): Pick<AppEnv, K> {
  const picked = {} as Pick<AppEnv, K>;
  for (const key of keys) picked[key] = config.get(key, { infer: true });
  return picked;
}
