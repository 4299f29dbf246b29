import { Module } from '@nestjs/common';

import { RuntimeConfigStore } from '../database/runtime-config.store';
import { HealthController } from './health.controller';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

/** The spec's "Config module" (ConfigModule is taken by @nestjs/config). */
@Module({
  controllers: [HealthController, SettingsController],
  providers: [RuntimeConfigStore, SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
