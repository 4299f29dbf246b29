import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { LessonsModule } from '../lessons/lessons.module';
import { MemoriesModule } from '../memories/memories.module';
import { SettingsModule } from '../settings/settings.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { VectorSearch } from './vector-search';

/** Search and search/fast: the vector and full-text statements, fusion and ranking. */
@Module({
  imports: [MemoryAccessModule, MemoriesModule, SettingsModule, LessonsModule],
  controllers: [SearchController],
  providers: [VectorSearch, SearchService],
  exports: [VectorSearch, SearchService],
})
export class RetrievalModule {}
