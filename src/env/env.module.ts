import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

import { APP_ENV } from './app-env.token';
import type { AppEnv } from './env.schema';

/**
 * Makes the validated environment injectable: typed as `@Inject(APP_ENV) env: AppEnv`, and
 * through @nestjs/config's ConfigService for code that prefers it. The environment is
 * validated before Nest starts (main.ts), so nothing here reads process.env.
 */
@Global()
@Module({})
export class EnvModule {
  static register(env: AppEnv): DynamicModule {
    return {
      module: EnvModule,
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, ignoreEnvVars: true, load: [() => ({ ...env })] })],
      providers: [{ provide: APP_ENV, useValue: Object.freeze({ ...env }) }],
      exports: [APP_ENV],
    };
  }
}
