import type { LanguageModelMiddleware } from 'ai';

import { renderMemories, type AtriumBinding } from './scope';

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type PromptMessage = CallOptions['prompt'][number];

export interface AtriumMemoryMiddlewareOptions extends AtriumBinding {
  /** Memories to recall per model call. Default 5. */
  limit?: number;
  /** Leave out memories scored below this (0..1). Default 0: keep what the search returns. */
  minScore?: number;
}

const MAX_QUERY = 10_000;

/** The text of the last user message: what the model is about to answer. */
function lastUserText(prompt: readonly PromptMessage[]): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role !== 'user') continue;
    return message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n')
      .trim();
  }
  return '';
}

/**
 * Before each model call, searches Atrium with the last user message and adds what it finds
 * as a system message (after the caller's own system messages). A search that a critical
 * lesson failed closed adds nothing. An Atrium error fails the call: a silent empty recall
 * would hide an outage.
 */
export function atriumMemoryMiddleware(options: AtriumMemoryMiddlewareOptions): LanguageModelMiddleware {
  const { client, scope = {}, limit = 5, minScore = 0 } = options;
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const query = lastUserText(params.prompt).slice(0, MAX_QUERY);
      if (!query) return params;
      const result = await client.search({ ...scope, query, limit }, { signal: params.abortSignal });
      if (result.lessonCheck?.safe === false) return params;
      const memories = result.memories.filter((m) => m.score >= minScore);
      if (memories.length === 0) return params;
      const leadingSystem = params.prompt.findIndex((m) => m.role !== 'system');
      const at = leadingSystem === -1 ? params.prompt.length : leadingSystem;
      const recalled: PromptMessage = { role: 'system', content: renderMemories(memories) };
      return { ...params, prompt: [...params.prompt.slice(0, at), recalled, ...params.prompt.slice(at)] };
    },
  };
}
