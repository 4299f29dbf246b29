import { SpanKind } from '@opentelemetry/api';

import { injectTraceHeaders, inSpan } from '../common/telemetry/tracing';
import { parseRetryAfter } from '../embeddings/openai.provider';
import { retryDelayMs } from '../embeddings/retry-delay';
import { LlmError, type ChatMessage, type ChatModel } from './chat-model';

export interface OpenAiChatOptions {
  /** Base URL without `/v1` (a trailing `/v1` is tolerated). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries?: number;
}

/**
 * Any OpenAI-compatible `POST /v1/chat/completions` (OpenAI, Ollama, vLLM, LM Studio...).
 * Asks for a JSON object (response_format json_object), retries 429/5xx/network errors with
 * backoff, and throws LlmError for anything else, which callers turn into a safe fallback.
 */
export class OpenAiChatModel implements ChatModel {
  readonly name = 'openai';
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiChatOptions) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`;
  }

  /** One chat completion, in a `chat <model>` CLIENT span; the `traceparent` goes with each attempt. */
  completeJson(messages: ChatMessage[]): Promise<Record<string, unknown>> {
    return inSpan(
      `chat ${this.model}`,
      () => ({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': this.model }),
      () => this.complete(messages),
      SpanKind.CLIENT,
    );
  }

  private async complete(messages: ChatMessage[]): Promise<Record<string, unknown>> {
    const maxRetries = this.options.maxRetries ?? 2;
    let lastFailure = 'no attempt made';
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
      injectTraceHeaders(headers);
      let response: Response;
      let text: string;
      try {
        response = await fetch(this.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ model: this.model, messages, temperature: 0, response_format: { type: 'json_object' } }),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        lastFailure = (error as Error).name === 'TimeoutError' ? `timed out after ${this.options.timeoutMs} ms` : (error as Error).message;
        if (attempt < maxRetries) await sleep(retryDelayMs(attempt, 200, 5000));
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        lastFailure = `HTTP ${response.status}`;
        if (attempt < maxRetries) await sleep(retryDelayMs(attempt, 200, 5000, parseRetryAfter(response.headers.get('retry-after'))));
        continue;
      }
      if (!response.ok) throw new LlmError(`chat endpoint answered HTTP ${response.status}`);
      return parseCompletion(text);
    }
    throw new LlmError(`chat endpoint failed: ${lastFailure}`);
  }
}

/** The assistant message's content, parsed as one JSON object (code fences tolerated). */
export function parseCompletion(body: string): Record<string, unknown> {
  let content: unknown;
  try {
    content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    throw new LlmError('chat endpoint returned a body that is not JSON');
  }
  if (typeof content !== 'string') throw new LlmError('chat completion has no message content');
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced);
  } catch {
    throw new LlmError('chat completion content is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new LlmError('chat completion JSON is not an object');
  return parsed as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
