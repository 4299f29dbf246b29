import { lineGap, rx } from '../regex-parts';
import type { PatternRule } from '../sanitizer.types';

/*
 * Text that imitates the structure of a conversation. Raw special tokens are blocked even in
 * technical notes: some serving stacks still parse them out of user text, and a note can say
 * "im_start" without the delimiters. Headers such as "System:" are only blocked when what
 * follows addresses the model, so "System: Ubuntu 22.04" and "file system: ext4" pass.
 */

const ADDRESSES_MODEL = String.raw`(?=${lineGap(160)}\b(?:you|your|you're|assistant|ignore|disregard|reveal|respond|reply|must|new instructions?|from now on|override|priority|do not|don't|never tell|obey|comply|queries|refusals?|safety|filters?|filtering|moderation|guardrails|authentication|bypass(?:ed)?|jailbreak|developer mode|maintenance mode|grant|permissions?|disable[ds]?|restrictions|the user|forward|send|delete|share|transfer|export|e-?mail (?:all|every|the))\b)`;

export const CHAT_TEMPLATE_RULES: readonly PatternRule[] = [
  {
    id: 'injection:chat-template-token',
    category: 'chat-template',
    severity: 'block',
    description:
      'Raw chat-template control tokens: <|im_start|>, <|system|>, <|endoftext|>, [INST], <<SYS>>, <start_of_turn>, an orphan </s>.',
    patterns: [
      rx(String.raw`<\|\s*[a-z_]{2,24}(?:\|>|\s*\|\s*>)`),
      rx(String.raw`\[\/?inst\]`),
      rx(String.raw`<<\/?sys>>`),
      rx(String.raw`<\/?(?:start_of_turn|end_of_turn|bos|eos|eot|s_start|sep|pad|unk|cls|mask)>`),
      // "</s>" closes a strike-through in HTML; without a matching "<s>" nearby it ends a sequence.
      rx(String.raw`(?<!<s>[^<]{0,200})<\/s>`),
      rx(String.raw`<s>\s*(?:\[inst\]|<\|)`),
      rx(String.raw`(?<=(?:^|\n)\s*(?:<\||\|)?)(?:im_start|im_end)\|?>?\s*(?:system|assistant|user)\b`),
    ],
  },
  {
    id: 'injection:fake-system-header',
    category: 'chat-template',
    severity: 'block',
    description:
      'Fake system or developer headers addressing the model ("### System:", "[SYSTEM]", "<system>", "SYSTEM MESSAGE:", "end of user input") to pass text off as privileged instructions.',
    patterns: [
      rx(
        String.raw`(?<=^|\n|[.!?]\s|[\[({<]\s*|#{1,6}\s*|[-=*]{3,}\s*)(?:system|system prompt|system message|system instructions?|system note|system notice|system alert|system update|system command|system override|sys|developer|developer message|developer note|developer instructions|admin|admin message|admin note|administrator|root|operator|operator message|operator instructions|moderator|assistant instructions|security notice|security alert|override|priority override)\s*(?:\]|\)|>|:|-{1,2}>|=>)\s*:?\s*${ADDRESSES_MODEL}`,
      ),
      // The same header in other languages.
      rx(
        String.raw`(?<=^|\n|[.!?]\s|[\[({<【]\s*)(?:mensaje del sistema|instrucci(?:ón|ones) del sistema|aviso del sistema|message (?:du )?système|instructions? (?:du )?système|systemnachricht|systemanweisung(?:en)?|systemhinweis|messaggio di sistema|istruzioni di sistema|mensagem do sistema|instruções do sistema|системное сообщение|системная инструкция|системн\p{L}* указани\p{L}*)\s*(?:\]|\)|>|:|】)`,
      ),
      rx(
        String.raw`(?:以下はシステム(?:から)?の(?:指示|命令|メッセージ)|システム(?:からの)?(?:指示|命令|メッセージ)\s*[:：]|以下是系统(?:指令|消息|提示)|系统(?:指令|消息|通知)\s*[:：]|系統(?:指令|訊息|通知)\s*[:：]|【系统】|【系統】|\[系统\]|시스템 (?:메시지|지시)\s*:)`,
      ),
      rx(String.raw`#{2,6}\s*(?:system|assistant)\s*(?:prompt|message)?\s*:?\s*\n${ADDRESSES_MODEL}`),
      // A <system> element with a body, or followed by orders; naming the tag in prose ("the `<system>` block") passes.
      rx(
        String.raw`<(system|system_prompt|system-prompt|sys_prompt|systemprompt|admin_instructions?|hidden_instructions?|developer_instructions?|developer_message|assistant_instructions?|instructions_for_(?:ai|assistant|model))(?:\s[^>\n]{0,60})?>(?=[^<]{1,400}<\/\1\s*>)`,
      ),
      rx(
        String.raw`<\/?(?:system|system_prompt|system-prompt|sys_prompt|systemprompt|admin_instructions?|hidden_instructions?|developer_instructions?|developer_message|assistant_instructions?|instructions_for_(?:ai|assistant|model))(?:\s[^>\n]{0,60})?>(?![\x60'"”’])${ADDRESSES_MODEL}`,
      ),
      rx(String.raw`<\/?instructions?>${ADDRESSES_MODEL}`),
      rx(
        String.raw`\b(?:end of|ignore the rest of the|beginning of new|start of new)\s+(?:the\s+)?(?:user (?:input|message|data|content|query)|document|context|untrusted (?:content|data|input)|memory|retrieved (?:content|text|data)|conversation)\b\s*[.:\]\-)—–]*\s*${ADDRESSES_MODEL}`,
      ),
    ],
  },
  {
    id: 'injection:fake-chat-message',
    category: 'chat-template',
    severity: 'block',
    description:
      'Serialized chat messages or tool calls in the text: JSON with "role": "system"/"assistant"/"developer"/"tool", a fake "Assistant: Sure, ..." turn, "tool_calls"/"function_call" keys.',
    patterns: [
      rx(String.raw`(?<=["'“”])role["'“”]\s*:\s*["'“”](?:system|assistant|developer|tool|function|model)["'“”]`),
      rx(String.raw`(?<=["'“”])(?:tool_calls?|function_call|tool_use|functioncall|tool_call_id)["'“”]\s*:`),
      // XML-style transcript: <human>...</human><assistant>...
      rx(String.raw`<(human|user)>[^<]{0,300}<\/\1>\s*<(?:assistant|ai|model|bot)>`),
      // Alpaca-style template: "### Instruction: ... ### Response:"
      rx(String.raw`#{2,4}\s*(?:instruction|input)\s*:?\s*\n[^\n]{0,400}\n+\s*#{2,4}\s*(?:response|output|answer)\s*:?`),
      // YAML-style messages: a role line followed by a content line.
      rx(
        String.raw`(?<=(?:^|\n)\s*-?\s*["']?)role["']?\s*:\s*["']?(?:system|assistant|developer|tool)["']?\s*,?\s*\n\s*-?\s*["']?(?:content|text|message)["']?\s*:`,
      ),
      rx(
        String.raw`(?<=(?:^|\n)\s*)(?:assistant|ai|gpt|claude|chatgpt|model)\s*:\s*(?:sure|certainly|of course|okay|ok|absolutely|understood|yes|alright)\b[,!.]?\s*(?:here (?:is|are)|i will|i'll|i can|i am now|i'm now|i have|i've)\b`,
      ),
      rx(
        String.raw`(?<=(?:^|\n)\s*)(?:human|user)\s*:${lineGap(300)}\n\s*(?:assistant|ai)\s*:${lineGap(200)}\n\s*(?:human|user)\s*:${lineGap(300)}\b(?:ignore|reveal|system prompt|password|api key|jailbreak)\b`,
      ),
    ],
  },
];
