import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { LessonsModule } from '../lessons/lessons.module';
import { AccessTracker } from './access-tracker';
import { ExportController } from './export.controller';
import { ExportService } from './export.service';
import { MemoriesController } from './memories.controller';
import { MemoriesRepository } from './memories.repository';
import { MemoriesService } from './memories.service';

/** Memory records: the repository over MemoryAccess, access bookkeeping, and the record routes. */
@Module({
  imports: [MemoryAccessModule, LessonsModule],
  controllers: [MemoriesController, ExportController],
  providers: [MemoriesRepository, AccessTracker, MemoriesService, ExportService],
  exports: [MemoriesRepository, AccessTracker, MemoriesService],
})
export class MemoriesModule {}
