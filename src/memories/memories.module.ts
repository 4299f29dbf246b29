import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { LessonsModule } from '../lessons/lessons.module';
import { SettingsModule } from '../settings/settings.module';
import { AccessTracker } from './access-tracker';
import { GrantsController } from './grants.controller';
import { GrantsRepository } from './grants.repository';
import { GrantsService } from './grants.service';
import { IngestService } from './ingest.service';
import { LlmPlanner } from './llm-planner';
import { MemoriesController } from './memories.controller';
import { MemoriesRepository } from './memories.repository';
import { MemoriesService } from './memories.service';
import { SearchService } from './search.service';
import { VectorSearch } from './vector-search';

@Module({
  imports: [MemoryAccessModule, SettingsModule, LessonsModule],
  controllers: [GrantsController, MemoriesController],
  providers: [
    MemoriesRepository,
    VectorSearch,
    GrantsRepository,
    AccessTracker,
    MemoriesService,
    SearchService,
    IngestService,
    GrantsService,
    LlmPlanner,
  ],
  exports: [MemoriesRepository, VectorSearch, SearchService, IngestService, AccessTracker],
})
export class MemoriesModule {}
