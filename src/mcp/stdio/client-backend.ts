import {
  AtriumError,
  AtriumNetworkError,
  AtriumTimeoutError,
  keysToSnake,
  type AtriumClient,
  type MemoryRecord,
  type SearchOptions,
  type WriterScopeInput,
} from '../../client';
import type { LessonCheckWire, MemoryRecordWire } from '../../contract/wire-types';
import { blockedMessage, MEMORY_NOT_FOUND, ToolFailure, type ToolBackend } from '../tools/backend';
import type { RecallArgs } from '../tools/catalogue';

/**
 * Who the stdio server acts as (CONTRACT section 11): an API key (the service takes the scope
 * from it), or without a key the ids from the environment. Fixed at start; no tool argument
 * changes it.
 */
export type StdioIdentity =
  { kind: 'key' } | { kind: 'user'; userId: string } | { kind: 'workspace'; userId: string; workspaceId: string; agentId: string };

export interface StdioConfig {
  url: string;
  apiKey: string | undefined;
  identity: StdioIdentity;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** The environment of `atrium-mcp`, checked before anything starts: a message naming the variable, or the config. */
export function stdioConfigFrom(env: Record<string, string | undefined>): StdioConfig {
  const url = present(env.ATRIUM_URL) ? env.ATRIUM_URL : 'http://localhost:3050';
  if (present(env.ATRIUM_API_KEY)) return { url, apiKey: env.ATRIUM_API_KEY, identity: { kind: 'key' } };
  if (!present(env.ATRIUM_USER_ID)) throw new Error('ATRIUM_USER_ID is required when ATRIUM_API_KEY is not set');
  if (!present(env.ATRIUM_WORKSPACE_ID)) return { url, apiKey: undefined, identity: { kind: 'user', userId: env.ATRIUM_USER_ID } };
  if (!present(env.ATRIUM_AGENT_ID)) throw new Error('ATRIUM_AGENT_ID is required with ATRIUM_WORKSPACE_ID');
  return {
    url,
    apiKey: undefined,
    identity: { kind: 'workspace', userId: env.ATRIUM_USER_ID, workspaceId: env.ATRIUM_WORKSPACE_ID, agentId: env.ATRIUM_AGENT_ID },
  };
}

/** The scope fields every client call carries (none with a key: the service binds it). */
function scopeOf(identity: StdioIdentity): WriterScopeInput {
  switch (identity.kind) {
    case 'key':
      return {};
    case 'user':
      return { userId: identity.userId };
    case 'workspace':
      return { userId: identity.userId, workspaceId: identity.workspaceId, agentId: identity.agentId };
  }
}

/** recall's search: the identity's scope, narrowed by agent_scope where there is a workspace. */
function searchOptions(identity: StdioIdentity, args: RecallArgs): SearchOptions {
  const query = { query: args.query, limit: args.limit };
  switch (identity.kind) {
    case 'key':
      return { ...query, agentScope: args.agent_scope };
    case 'user':
      if (args.agent_scope !== undefined) throw new ToolFailure('agent_scope requires workspace_id');
      return { ...query, userId: identity.userId };
    case 'workspace':
      return {
        ...query,
        userId: identity.userId,
        workspaceId: identity.workspaceId,
        agentId: identity.agentId,
        agentScope: args.agent_scope,
      };
  }
}

/** The service's answer as the tool's: its own message for a refusal, "memory not found" for 404. */
function toolFailureOf(error: unknown, url: string): unknown {
  if (error instanceof AtriumError) {
    if (error.status === 404) return new ToolFailure(MEMORY_NOT_FOUND, 'not_found');
    const said = (error.body as { error?: unknown } | null)?.error;
    const message = typeof said === 'string' ? said : error.message;
    if (error.status === 422) {
      if (/time budget/.test(message)) return new ToolFailure(`not stored: ${message}`, 'blocked');
      return new ToolFailure(blockedMessage(/trust/.test(message) ? 'low_trust' : 'injection'), 'blocked');
    }
    if (error.status < 500) return new ToolFailure(message);
  }
  if (error instanceof AtriumNetworkError || error instanceof AtriumTimeoutError)
    return new ToolFailure(`Atrium at ${url} did not answer (${error.message}); is it running?`);
  return error;
}

const record = (memory: MemoryRecord): MemoryRecordWire => keysToSnake(memory) as MemoryRecordWire;

/**
 * The tools over a running Atrium, through the typed client: each tool is the REST route the
 * HTTP server's tool calls in-process, so the service applies the same gate, visibility and
 * lesson check. One difference: REST's /ingest/quick does not say why a fact was skipped, so a
 * `remember` that stored nothing is reported as refused by the gate or a repeat (docs/mcp.md).
 */
export function clientBackend(client: AtriumClient, config: StdioConfig): ToolBackend {
  const scope = scopeOf(config.identity);
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toolFailureOf(error, config.url);
    }
  };
  return {
    remember: (args) =>
      guarded(async () => {
        const result = await client.ingestQuick({
          ...scope,
          conversation: args.content,
          sourceSite: args.source_site ?? 'mcp',
          visibility: args.visibility,
          metadata: args.metadata,
          skipExtraction: true,
        });
        if (result.memoriesStored === 0 && result.memoriesSkipped > 0) throw new ToolFailure(blockedMessage('unknown'), 'blocked');
        return { stored_memory_ids: result.storedMemoryIds, memories_skipped: result.memoriesSkipped };
      }),
    recall: (args) =>
      guarded(async () => {
        const found = await client.search(searchOptions(config.identity, args));
        return {
          memories: found.memories.map((m) => ({
            id: m.id,
            content: m.content,
            score: m.score,
            created_at: m.createdAt,
            agent_id: m.agentId,
            visibility: m.visibility,
          })),
          lesson_check: found.lessonCheck
            ? (keysToSnake(found.lessonCheck) as LessonCheckWire)
            : { safe: true, warnings: [], highest_severity: 'none', matched_count: 0 },
        };
      }),
    getMemory: (id) => guarded(async () => record(await client.get({ ...scope, id }))),
    listMemories: (args) =>
      guarded(async () => {
        const page = await client.list({ ...scope, limit: args.limit, offset: args.offset });
        return { memories: page.memories.map(record), count: page.count };
      }),
    forget: (id) =>
      guarded(async () => {
        // A user-scope DELETE answers success whether or not a row matched (spec 4.2.7), and a
        // key's role is not known here: ask first, so an unknown id is "memory not found" in both.
        await client.get({ ...scope, id });
        await client.delete({ ...scope, id });
        return { success: true as const };
      }),
    reportLesson: (args) =>
      guarded(async () => {
        const result = await client.reportLesson({
          userId: 'userId' in scope ? scope.userId : undefined,
          pattern: args.pattern,
          severity: args.severity,
          sourceMemoryIds: args.source_memory_ids,
        });
        return { lesson_id: result.lessonId };
      }),
  };
}
