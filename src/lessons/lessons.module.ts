import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AgentsModule } from '../agents/agents.module';
import { SettingsModule } from '../settings/settings.module';
import { LessonEntity } from './lesson.entity';
import { LessonsController } from './lessons.controller';
import { LessonsRepository } from './lessons.repository';
import { LessonsService } from './lessons.service';
import { WriteGateService } from './write-gate.service';

@Module({
  imports: [TypeOrmModule.forFeature([LessonEntity]), SettingsModule, AgentsModule],
  controllers: [LessonsController],
  providers: [LessonsRepository, LessonsService, WriteGateService],
  exports: [LessonsService, WriteGateService],
})
export class LessonsModule {}
