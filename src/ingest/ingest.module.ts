import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { LessonsModule } from '../lessons/lessons.module';
import { MemoriesModule } from '../memories/memories.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { SettingsModule } from '../settings/settings.module';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { LlmPlanner } from './llm-planner';

/** The write path: extraction, the write gate, de-duplication and the LLM's decisions. */
@Module({
  imports: [MemoryAccessModule, MemoriesModule, RetrievalModule, SettingsModule, LessonsModule],
  controllers: [IngestController, ImportController],
  providers: [IngestService, LlmPlanner, ImportService],
  exports: [IngestService],
})
export class IngestModule {}
