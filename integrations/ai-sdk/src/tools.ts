import { jsonSchema, tool } from 'ai';
import type { Visibility } from 'atrium/client';

import type { AtriumBinding } from './scope';

export interface AtriumToolsOptions extends AtriumBinding {
  /** `source_site` of what `remember` stores. Default `ai-sdk`. */
  sourceSite?: string;
  /** Visibility of what `remember` stores in a workspace (the service's default: `workspace`). */
  visibility?: Visibility;
  /** Memories `recall` returns when the model does not say. Default 5. */
  recallLimit?: number;
}

export interface RememberResult {
  stored: boolean;
  /** The new memory's id when stored. */
  id?: string;
  /** Why nothing was stored: a near-duplicate of a memory the agent can see, or refused by the write gate. */
  reason?: string;
}

export interface RecalledMemory {
  id: string;
  content: string;
  score: number;
  createdAt: string;
}

export interface RecallResult {
  memories: RecalledMemory[];
  /** Set when a critical lesson matched the query: the search failed closed and returned nothing. */
  blocked?: string;
}

const MAX_QUERY = 10_000;

/**
 * `remember` and `recall` as AI SDK tools, bound to one Atrium scope. The model chooses only
 * the text and the query; who is asking is the application's scope, so agent B's tools can
 * never read agent A's `agent_only` memories, whatever the model writes.
 */
export function atriumTools(options: AtriumToolsOptions) {
  const { client, scope = {}, sourceSite = 'ai-sdk', visibility, recallLimit = 5 } = options;
  return {
    remember: tool({
      description: 'Store a fact worth remembering across conversations (one self-contained sentence).',
      inputSchema: jsonSchema<{ content: string }>({
        type: 'object',
        properties: { content: { type: 'string', minLength: 1, maxLength: 100_000, description: 'The fact, as a full sentence.' } },
        required: ['content'],
        additionalProperties: false,
      }),
      execute: async ({ content }, { abortSignal }): Promise<RememberResult> => {
        const result = await client.ingestQuick(
          { ...scope, conversation: content, sourceSite, skipExtraction: true, ...(visibility && { visibility }) },
          { signal: abortSignal },
        );
        const [id] = result.storedMemoryIds;
        if (id !== undefined) return { stored: true, id };
        return { stored: false, reason: 'not stored: it repeats a memory already kept, or the write gate refused it' };
      },
    }),
    recall: tool({
      description: 'Search long-term memory for facts relevant to a question.',
      inputSchema: jsonSchema<{ query: string; limit?: number }>({
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'What to look for, in plain words.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: `How many memories, default ${recallLimit}.` },
        },
        required: ['query'],
        additionalProperties: false,
      }),
      execute: async ({ query, limit }, { abortSignal }): Promise<RecallResult> => {
        const result = await client.search(
          { ...scope, query: query.slice(0, MAX_QUERY), limit: limit ?? recallLimit },
          { signal: abortSignal },
        );
        if (result.lessonCheck?.safe === false) {
          return { memories: [], blocked: 'a critical lesson matched this query; nothing was recalled' };
        }
        return { memories: result.memories.map(({ id, content, score, createdAt }) => ({ id, content, score, createdAt })) };
      },
    }),
  };
}
