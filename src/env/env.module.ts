import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

import type { AppEnv } from './env.schema';

/**
 * Makes the validated environment injectable through @nestjs/config's ConfigService (typed as
 * AppConfig, see app-config.ts). The environment is validated by loadEnv() before Nest starts
 * (main.ts), because the database and embedding modules are built from it; nothing here reads
 * process.env or a .env file again.
 */
@Module({})
export class EnvModule {
  static register(env: AppEnv): DynamicModule {
    const validated = Object.freeze({ ...env });
    return {
      module: EnvModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, ignoreEnvVars: true, cache: true, load: [() => ({ ...validated })] }),
      ],
    };
  }
}
