import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { MemoryAccessModule } from '../database/access/memory-access.module';
import { SettingsModule } from '../settings/settings.module';
import { LessonsController } from './lessons.controller';
import { LessonsRepository } from './lessons.repository';
import { LessonsService } from './lessons.service';
import { WriteGateService } from './write-gate.service';

@Module({
  imports: [MemoryAccessModule, SettingsModule, AgentsModule],
  controllers: [LessonsController],
  providers: [LessonsRepository, LessonsService, WriteGateService],
  exports: [LessonsService, WriteGateService],
})
export class LessonsModule {}
