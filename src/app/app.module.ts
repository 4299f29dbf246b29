import { DynamicModule, Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { DatabaseModule } from '../database/database.module';
import { EmbeddingsModule } from '../embeddings/embeddings.module';
import { EnvModule } from '../env/env.module';
import type { AppEnv } from '../env/env.schema';
import { GrantsModule } from '../grants/grants.module';
import { IngestModule } from '../ingest/ingest.module';
import { InspectorModule } from '../inspector/inspector.module';
import { LessonsModule } from '../lessons/lessons.module';
import { LlmModule } from '../llm/llm.module';
import { McpModule } from '../mcp/mcp.module';
import { MemoriesModule } from '../memories/memories.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { SettingsModule } from '../settings/settings.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WorkersModule } from '../workers/workers.module';
import { RouteOrder } from './route-order';

/**
 * The feature modules, in any order: RouteOrder puts fixed paths (lessons, health, config)
 * ahead of the `/:id` routes they share a prefix with (app/route-order.ts), so no route
 * depends on which module registered first.
 */
@Module({})
export class AppModule {
  static register(env: AppEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.register(env),
        DatabaseModule.forRoot(env),
        MetricsModule,
        WorkersModule,
        AuthModule,
        EmbeddingsModule.forRoot(env),
        LlmModule.forRoot(env),
        SettingsModule,
        AgentsModule,
        LessonsModule,
        IngestModule,
        RetrievalModule,
        GrantsModule,
        MemoriesModule,
        InspectorModule,
        WebhooksModule,
        McpModule,
      ],
      providers: [RouteOrder],
    };
  }
}
