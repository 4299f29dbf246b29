import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { LessonsModule } from '../lessons/lessons.module';
import { SettingsModule } from '../settings/settings.module';
import { AccessTracker } from './access-tracker';
import { EpisodeEntity } from './episode.entity';
import { GrantsController } from './grants.controller';
import { GrantsRepository } from './grants.repository';
import { GrantsService } from './grants.service';
import { IngestService } from './ingest.service';
import { LlmPlanner } from './llm-planner';
import { MemoriesController } from './memories.controller';
import { MemoriesRepository } from './memories.repository';
import { MemoriesService } from './memories.service';
import { MemoryEntity } from './memory.entity';
import { SearchService } from './search.service';
import { VisibilityGrantEntity } from './visibility-grant.entity';

@Module({
  imports: [TypeOrmModule.forFeature([MemoryEntity, EpisodeEntity, VisibilityGrantEntity]), SettingsModule, LessonsModule],
  controllers: [GrantsController, MemoriesController],
  providers: [MemoriesRepository, GrantsRepository, AccessTracker, MemoriesService, SearchService, IngestService, GrantsService, LlmPlanner],
  exports: [MemoriesRepository, SearchService, IngestService, AccessTracker],
})
export class MemoriesModule {}
