import { Module } from '@nestjs/common';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { ExplainController } from './explain.controller';
import { VisibilityExplainer } from './explain.service';

/**
 * The server side of the memory inspector: the admin's explain route. (The pages themselves
 * are static files, served by app.setup.ts from inspector-assets.ts.)
 */
@Module({
  imports: [MemoryAccessModule],
  controllers: [ExplainController],
  providers: [VisibilityExplainer],
})
export class InspectorModule {}
