import { DynamicModule, Global, Module } from '@nestjs/common';

import type { AppEnv } from '../env/env.schema';
import { CHAT_MODEL } from './chat-model';
import { OpenAiChatModel } from './openai-chat.model';

/** Provides CHAT_MODEL: an OpenAI-compatible chat model, or null when LLM_PROVIDER=none. */
@Global()
@Module({})
export class LlmModule {
  static forRoot(env: AppEnv): DynamicModule {
    return {
      module: LlmModule,
      providers: [
        {
          provide: CHAT_MODEL,
          useFactory: () =>
            env.LLM_PROVIDER === 'openai'
              ? new OpenAiChatModel({
                  baseUrl: env.LLM_BASE_URL as string,
                  model: env.LLM_MODEL,
                  apiKey: env.LLM_API_KEY,
                  timeoutMs: env.LLM_TIMEOUT_MS,
                })
              : null,
        },
      ],
      exports: [CHAT_MODEL],
    };
  }
}
