import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';

import { IngestModule } from '../ingest/ingest.module';
import { LessonsModule } from '../lessons/lessons.module';
import { MemoriesModule } from '../memories/memories.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { McpController } from './mcp.controller';
import { OriginCheckMiddleware } from './origin-check.middleware';
import { ServiceToolBackends } from './service-backend';

/** The MCP server at /mcp: six tools over the services the REST routes use (docs/mcp.md). */
@Module({
  imports: [IngestModule, RetrievalModule, MemoriesModule, LessonsModule],
  controllers: [McpController],
  providers: [ServiceToolBackends, OriginCheckMiddleware],
})
export class McpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(OriginCheckMiddleware).forRoutes(McpController);
  }
}
