import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { MemoriesModule } from '../memories/memories.module';
import { GrantsController } from './grants.controller';
import { GrantsRepository } from './grants.repository';
import { GrantsService } from './grants.service';

/** Grants on restricted memories, managed by the owning agent only. */
@Module({
  imports: [MemoryAccessModule, MemoriesModule],
  controllers: [GrantsController],
  providers: [GrantsRepository, GrantsService],
  exports: [GrantsService],
})
export class GrantsModule {}
