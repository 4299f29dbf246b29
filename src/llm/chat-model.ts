export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A chat model that answers with one JSON object. */
export interface ChatModel {
  readonly name: string;
  readonly model: string;
  /** The parsed JSON object the model returned. Throws LlmError when there is none. */
  completeJson(messages: ChatMessage[]): Promise<Record<string, unknown>>;
}

export class LlmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

export const CHAT_MODEL = Symbol('CHAT_MODEL');
