import { L, lineGap, R, rx } from '../regex-parts';
import type { PatternRule } from '../sanitizer.types';

/*
 * Text that speaks to whatever model later reads it. A memory is written for the user's
 * benefit; "AI reading this", "if you are an LLM" or "note to the AI" only make sense as a
 * payload waiting for a reader. "Note to the assistant" is ambiguous (a human assistant), so
 * it needs an order after it; "if you are an AI researcher" is excluded.
 */

const READER = String.raw`(?:ai|a\.i\.|llms?|language models?|large language models?|chat ?bots?|ai (?:assistants?|agents?|models?|systems?)|gpts?|chatgpt|claude|gemini|copilot|automated (?:systems?|agents?|assistants?|readers?))`;
const NOT_A_PERSON = String.raw`(?!\s*(?:researchers?|engineers?|developers?|startups?|compan(?:y|ies)|enthusiasts?|students?|experts?|professionals?|products?|teams?|persons?|practitioners?|ethicists?|skeptics?|fans?|hobbyists?|labs?|vendors?|-powered|-based|safety|ethics|policy|act|course|class|community|news|hype|tools?|art|generated)\b)`;
const ORDER = String.raw`(?:ignore|disregard|reveal|send|forward|grant|steer|recommend|promote|delete|transfer|disable|turn off|make the|make your|tell (?:the )?users?|say (?:that|this|it)|answer (?:every|all|any)|from (?:now|this (?:message|point|moment)) on|accept all|share (?:the|all|their)|mark (?:all|every)|book (?:via|through|at)|do not (?:tell|inform|mention)|don't (?:tell|inform|mention)|instead|override|priority|execute|obey|comply|must (?:follow|ignore|send|reveal|include|now)|new instructions|system prompt|from now on|you are now|always (?:include|add|recommend|append|insert)|include (?:this|the following) link)`;

export const ADDRESSED_TO_AI_RULES: readonly PatternRule[] = [
  {
    id: 'injection:addressed-to-ai',
    category: 'addressed-to-ai',
    severity: 'block',
    description:
      'Speaks to an AI that will read the text: "AI assistant reading this", "if you are an AI/LLM", "note to the AI", "assistant: when you read this" (en, es, fr, de, pt, it, zh, ru, ja).',
    allowQuotedMention: true,
    patterns: [
      rx(
        String.raw`\b${READER}\s+(?:that is |who is |which is |that are |who are )?(?:reading|processing|parsing|analy[sz]ing|summari[sz]ing|scanning|ingesting|indexing|retrieving|seeing|viewing|crawling|that (?:reads?|processes?|sees?|parses?|retrieves?|summari[sz]es?|finds?)|who (?:reads?|processes?|sees?|finds?)|which (?:reads?|processes?))\s+(?:this|the following)(?:\s+(?:text|note|memory|message|document|page|content|comment|line|sentence|instructions?|paragraph|entry))?\s*(?:[,.:;!?—-]|$|\n|\s+(?:you|please|must|should|ignore|do|note|is|will|shall)\b)`,
      ),
      rx(
        String.raw`\b${READER}\s+(?:reading|processing|parsing|analy[sz]ing|summari[sz]ing|scanning|screening|reviewing|evaluating|ranking)\s+(?:this|these)\s+[\p{L}-]{1,20}\s+(?:should|must|need to|needs to|are (?:required|instructed|asked|expected) to|is (?:required|instructed|asked|expected) to|will|shall|have to|has to)\b`,
      ),
      rx(
        String.raw`\b(?:note|message|instructions?|notice|memo|reminder|p\.?s\.?|a word|warning|attention)\s*(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+|our\s+)?${READER}\b${NOT_A_PERSON}`,
      ),
      rx(
        String.raw`\b(?:note|message|instructions?|notice|memo|reminder|p\.?s\.?)\s*(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+)?(?:assistant|agent|bot|model)s?\b\s*[:,\-—]${lineGap(120)}\b${ORDER}`,
      ),
      rx(
        String.raw`\b(?:dear|hey|hi|hello|attention|psst)[,!:]?\s+(?:the\s+)?(?:assistant|agent|bot|model)\b\s*[,:!—-]${lineGap(160)}\b${ORDER}`,
      ),
      rx(
        String.raw`\bif\s+you(?:'re| are)\s+(?:an?\s+|the\s+)?(?:ai|a\.i\.|llm|large language model|language model|chatbot|ai (?:assistant|model|agent|system)|automated (?:system|agent|assistant)|gpt|chatgpt|claude|gemini)\b${NOT_A_PERSON}`,
      ),
      rx(
        String.raw`\b(?:when|once|as soon as|after|if|whenever)\s+(?:an?\s+|the\s+|any\s+)?${READER}\s+(?:reads?|sees?|processes?|encounters?|retrieves?|finds?|loads?|parses?|summari[sz]es?|ingests?)\s+(?:this|these)\b`,
      ),
      rx(
        String.raw`\b(?:when|once|as soon as|whenever)\s+you\s+(?:read|see|process|encounter|retrieve|load|parse|summari[sz]e|ingest)\s+(?:this|these)\s*(?:text|note|memory|message|document|page|line|sentence|instructions?|content|comment|email)?\b${lineGap(120)}\b${ORDER}`,
      ),
      rx(
        String.raw`\b(?:dear|hey|hi|hello|attention|listen(?: up)?|psst|yo|greetings)[,!:]?\s+(?:ai|a\.i\.|llm|chatgpt|gpt|claude|gemini|copilot|chatbot|language model|ai (?:assistant|agent|model))\b${NOT_A_PERSON}${lineGap(160)}\b${ORDER}`,
      ),
      rx(
        String.raw`(?<=(?:^|\n|[.!?:;(\[]\s?|<!--|/\*|//|#)\s*)(?:assistant|agent|bot|model)\s*[:,]\s*(?:when|while|before|after|once|if)\b${lineGap(120)}\b${ORDER}`,
      ),
      // A vocative ("Assistant, ...", "<!-- llm: ...") followed by an order on the same line.
      rx(
        String.raw`(?<=(?:^|\n|[.!?,;:(\[]\s?|<!--|/\*|//|#)\s*)(?:ai|ai assistant|llm|chatbot|gpt|chatgpt|claude|gemini|copilot)\s*[:,]${lineGap(120)}\b${ORDER}`,
      ),
      rx(
        String.raw`(?<=(?:^|\n|[.!?,;(\[]\s?|<!--|/\*|//|#)\s*)(?:assistant|ai|ai assistant|llm|agent|chatbot|model)\s*[:,]\s*(?:when you (?:read|see|process)|ignore|disregard|do not (?:mention|reveal|inform)|don't (?:mention|reveal|inform)|you must|you will now|from now on|do not tell|don't tell|please (?:ignore|disregard|do not tell|don't tell)|remember to (?:ignore|send|reveal|include|always))`,
      ),
      // "PS to whatever bot reads my emails"
      rx(
        String.raw`\b(?:to|for|dear|hey|hi|ps|p\.s\.|note to|message to|attention)\s+(?:whatever|whichever|any|every|the|all|each)\s+(?:ai|bot|assistant|llm|agent|model|chatbot|gpt|automated system|automation)s?\s+(?:that\s+|which\s+|who\s+)?(?:reads?|is reading|processes|parses|summari[sz]es|scans|handles|sorts|triages)\s+(?:this|my|these|the)\b`,
      ),
      rx(
        String.raw`(?<=(?:^|\n|[.!?]\s)\s*)(?:ассистент|помощник|asistente|assistente|assistent|助手|アシスタント)\s*[,:，：]${lineGap(160)}(?:перешли|отправь|игнорируй|удали|раскрой|reenvía|envía|ignora|borra|revela|inoltra|invia|cancella|leite|sende|ignoriere|lösche|转发|发送|忽略|删除|転送|送信|無視)`,
      ),
      // "whoever is reading this with a language model", "important context for the model"
      rx(
        String.raw`\b(?:whoever|anyone|anybody|someone)\s+(?:is\s+)?(?:reading|processing|summari[sz]ing|viewing|parsing|checking)\s+(?:this|these|the following)\s+(?:\w+\s+)?(?:with|using|through|via)\s+(?:an?\s+|the\s+|your\s+)?(?:ai|llm|language model|chatbot|assistant|gpt|chatgpt|claude|gemini|copilot|bot)\b`,
      ),
      rx(
        String.raw`\b(?:context|information|info|fyi|update|guidance|instructions?|note|message)\s+for\s+(?:the|any|this|our)\s+(?:model|language model|llm|ai|ai assistant|ai agent)\b(?!\s+(?:team|card|registry|release|training|launch|evaluation|eval|documentation|docs)\b)`,
      ),
      rx(
        String.raw`\bto\s+(?:any|all|every)\s+${READER}\s+(?:reading|processing|that|who|which|seeing|here|out there|indexing|crawling)\b`,
      ),
      // Spanish, French, German, Portuguese, Italian
      rx(
        String.raw`${L}si (?:eres|usted es) (?:una?\s+)?(?:ia|inteligencia artificial|modelo de lenguaje|asistente de ia|llm|chatbot)${R}|${L}(?:nota|mensaje|instrucciones) para (?:la |el |cualquier )?(?:ia|asistente de ia|modelo de lenguaje|llm)${R}|${L}(?:ia|asistente|modelo|llm) que (?:lee|lea|procese|está leyendo|esté leyendo) (?:esto|este (?:texto|mensaje))${R}`,
      ),
      rx(
        String.raw`${L}si (?:tu es|vous êtes|t'es) (?:une?\s+)?(?:ia|intelligence artificielle|modèle de langage|llm|assistant ia|chatbot)${R}|${L}(?:note|message|instructions?) (?:pour|à) (?:l'ia|l'assistant ia|le modèle de langage|tout llm|toute ia)${R}|${L}(?:ia|assistant|modèle|llm) qui (?:lit|lira|traite) (?:ceci|ce texte|ce message|cette note)${R}`,
      ),
      rx(
        String.raw`${L}(?:wenn|falls) (?:du|sie) (?:eine?\s+)?(?:ki|sprachmodell|llm|ki-assistent|chatbot|künstliche intelligenz) (?:bist|sind)${R}|${L}(?:hinweis|nachricht|anweisung(?:en)?) (?:für|an) (?:die|jede) (?:ki|sprachmodell)${R}|${L}(?:liebe|hallo|hey|achtung|an die|hinweis an die) (?:ki|sprachmodell|künstliche intelligenz)${R}|${L}(?:ki|assistent|sprachmodell),? (?:die|der|das) (?:dies|diesen text|das hier|diese nachricht) liest${R}`,
      ),
      rx(
        String.raw`${L}se (?:você|voce) (?:é|e|for) (?:uma?\s+)?(?:ia|inteligência artificial|modelo de linguagem|llm|chatbot)${R}|${L}(?:nota|mensagem) para (?:a ia|o assistente de ia|o modelo)${R}|${L}se sei (?:un'|una\s+|un\s+)?(?:ia|intelligenza artificiale|modello linguistico|llm|chatbot)${R}|${L}(?:nota|messaggio) per (?:l'ia|l'assistente ia|il modello)${R}`,
      ),
      rx(
        String.raw`${L}(?:nota|mensaje|instrucciones?|aviso) para (?:el|la) asistente\s*:${lineGap(160)}(?:a partir de ahora|de ahora en adelante|ignora|olvida|no (?:le )?digas|responde siempre|siempre|envía|revela)|${L}(?:note|message|consignes?) pour l'assistant\s*:${lineGap(160)}(?:désormais|dorénavant|ignore|oublie|ne dis|réponds toujours|toujours|envoie|révèle)|${L}(?:hinweis|nachricht|anweisung) (?:für|an) den assistenten\s*:${lineGap(160)}(?:ab jetzt|von nun an|ignoriere|vergiss|sag|antworte immer|immer|sende|verrate)`,
      ),
      // Chinese, Russian, Japanese
      rx(
        String.raw`(?:如果你是|假如你是|若你是)(?:一个|一個)?(?:ai|人工智能|语言模型|語言模型|大模型|大语言模型|大語言模型|助手|聊天机器人|聊天機器人)|(?:给|給|致)(?:ai|人工智能|语言模型|語言模型|助手)的(?:提示|说明|說明|指令|消息|訊息|留言)|(?:正在阅读|正在閱讀|读到|讀到)(?:此|这|這|本)(?:段|条|條|篇)?(?:文字|内容|內容|消息|訊息|文本)的(?:ai|人工智能|模型|助手)`,
      ),
      rx(
        String.raw`${L}если ты\s+(?:—\s+|-\s+)?(?:ии|искусственный интеллект|языковая модель|нейросеть|ассистент|чат-?бот|llm)${R}|${L}(?:ии|нейросеть|ассистент|модель|llm),?\s+(?:котор\p{L}+\s+)?(?:читает|читающ\p{L}+|прочитает|обрабатывает)\s+(?:это|этот текст|эту заметку|это сообщение)${R}|${L}(?:заметка|сообщение|инструкция) для (?:ии|нейросети|ассистента|модели)${R}`,
      ),
      rx(
        String.raw`(?:もしあなたが|あなたが)(?:ai|人工知能|言語モデル|アシスタント|チャットボット)(?:なら|であれば|の場合)|(?:aiへの|ai宛ての|アシスタントへの)(?:メモ|指示|メッセージ)`,
      ),
    ],
  },
];
