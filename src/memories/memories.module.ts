import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { LessonsModule } from '../lessons/lessons.module';
import { AccessTracker } from './access-tracker';
import { MemoriesController } from './memories.controller';
import { MemoriesRepository } from './memories.repository';
import { MemoriesService } from './memories.service';

/** Memory records: the repository over MemoryAccess, access bookkeeping, and the record routes. */
@Module({
  imports: [MemoryAccessModule, LessonsModule],
  controllers: [MemoriesController],
  providers: [MemoriesRepository, AccessTracker, MemoriesService],
  exports: [MemoriesRepository, AccessTracker, MemoriesService],
})
export class MemoriesModule {}
