import { Injectable } from '@nestjs/common';

import { DOMAIN_ERRORS, DomainError } from '../common/errors/domain-error';
import type { MemoryScope } from '../common/scope/memory-scope';
import { parseMemoryScope } from '../common/scope/parse-memory-scope';
import { QuickIngestDto } from '../ingest/ingest.dto';
import { IngestService } from '../ingest/ingest.service';
import { LessonsService } from '../lessons/lessons.service';
import { MemoriesService } from '../memories/memories.service';
import { SearchDto } from '../retrieval/search.dto';
import { SearchService } from '../retrieval/search.service';
import type { McpCaller } from './mcp-caller';
import { blockedMessage, MEMORY_NOT_FOUND, NO_LESSON_CHECK, ToolFailure, type ToolBackend } from './tools/backend';
import type { ListArgs, RecallArgs, RememberArgs, ReportLessonArgs } from './tools/catalogue';

const DEFAULT_SOURCE_SITE = 'mcp';

/**
 * A service error the caller should read becomes a tool error with the route's own message
 * (the same text REST answers with); not found is `memory not found`. Failures of the service
 * itself (database, embedder) stay errors: the MCP layer logs them and says only "internal".
 */
function toolFailureOf(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  if (error.code === 'MEMORY_NOT_FOUND') return new ToolFailure(MEMORY_NOT_FOUND, 'not_found');
  if (error.code === 'CONTENT_BLOCKED') return new ToolFailure(blockedMessage('injection'), 'blocked');
  if (error.code === 'CONTENT_LOW_TRUST') return new ToolFailure(blockedMessage('low_trust'), 'blocked');
  if (error.code === 'GATE_BUDGET_EXCEEDED') return new ToolFailure(`not stored: ${error.message}`, 'blocked');
  return DOMAIN_ERRORS[error.code].status < 500 ? new ToolFailure(error.message) : error;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toolFailureOf(error);
  }
}

/**
 * The tools on the service's own services, the ones the REST controllers call: the same write
 * gate, visibility SQL, lesson check and audit events (with the key's id in the actor).
 */
@Injectable()
export class ServiceToolBackends {
  constructor(
    private readonly ingest: IngestService,
    private readonly search: SearchService,
    private readonly memories: MemoriesService,
    private readonly lessons: LessonsService,
  ) {}

  for(caller: McpCaller): ToolBackend {
    const { scope, actor, principal } = caller;
    return {
      remember: (args: RememberArgs) =>
        guarded(async () => {
          const dto = Object.assign(new QuickIngestDto(), {
            conversation: args.content,
            source_site: args.source_site ?? DEFAULT_SOURCE_SITE,
            visibility: args.visibility,
            metadata: args.metadata,
            skip_extraction: true,
          });
          const { response, refusals } = await this.ingest.ingestVerbatim(scope, dto, actor);
          if (refusals.length > 0)
            throw new ToolFailure(blockedMessage(refusals.includes('injection') ? 'injection' : 'low_trust'), 'blocked');
          return { stored_memory_ids: response.stored_memory_ids, memories_skipped: response.memories_skipped };
        }),
      recall: (args: RecallArgs) =>
        guarded(async () => {
          const recallScope: MemoryScope =
            args.agent_scope === undefined ? scope : parseMemoryScope({ ...caller.raw, agent_scope: args.agent_scope });
          const found = await this.search.search(
            recallScope,
            Object.assign(new SearchDto(), { query: args.query, limit: args.limit }),
            null,
            principal,
          );
          return {
            memories: found.memories.map((m) => ({
              id: m.id,
              content: m.content,
              score: m.score,
              created_at: m.created_at,
              agent_id: m.agent_id,
              visibility: m.visibility,
            })),
            lesson_check: found.lesson_check ?? NO_LESSON_CHECK,
          };
        }),
      getMemory: (id: string) => guarded(() => this.memories.get(scope, id.toLowerCase())),
      listMemories: (args: ListArgs) => guarded(() => this.memories.list(scope, { limit: args.limit, offset: args.offset })),
      forget: (id: string) =>
        guarded(async () => {
          if (!(await this.memories.forget(scope, id.toLowerCase(), actor))) throw new ToolFailure(MEMORY_NOT_FOUND, 'not_found');
          return { success: true as const };
        }),
      reportLesson: (args: ReportLessonArgs) =>
        guarded(() =>
          this.lessons.report(
            scope.userId,
            {
              pattern: args.pattern,
              severity: args.severity,
              sourceMemoryIds: (args.source_memory_ids ?? []).map((id) => id.toLowerCase()),
            },
            principal,
            actor,
          ),
        ),
    };
  }
}
