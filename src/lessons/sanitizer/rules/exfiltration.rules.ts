import { EXTERNAL_DESTINATION, gap, L, lineGap, R, rx, words, YOUR } from '../regex-parts';
import type { PatternRule } from '../sanitizer.types';

/*
 * Exfiltration: three rules, because asking for the system prompt, shipping stored memories
 * off-site and harvesting credentials are distinct techniques (and a payload that does all
 * three deserves the `critical` lesson). The object must point at the model or at a third
 * party: "the system prompt for our chatbot lives in prompts/system.txt", "never share your
 * password" and "send the weekly report to my manager" are ordinary memories.
 */

const REVEAL_VERB = String.raw`(?:reveal|print|show|output|display|repeat|recite|tell me|tell us|give me|give us|share|disclose|leak|dump|expose|write out|write down|type out|spell out|paste|copy|list|echo|return|provide|send|email|post|translate|summari[sz]e|include|insert|append|attach|quote|reproduce|what (?:is|are|was|were)|what's|read (?:me|back|out))`;
const PROMPT_NOUN = String.raw`(?:system prompt|system message|context window|context|initiali[sz]ation (?:text|prompt|message|instructions)|setup (?:prompt|instructions)|boot (?:prompt|text)|(?:hidden |secret |internal |exact )?(?:rules|instructions|guidelines|policies) you (?:follow|obey|operate under|abide by|were given|have been given|received)|(?:configuration|settings|parameters|instructions|prompt) you were (?:launched|started|deployed|initiali[sz]ed|configured|set up|booted|created) with|(?:instructions|rules|prompt|guidelines|directives|configuration) (?:that )?(?:your|the) (?:operator|developer|creator|owner|admin|deployer)s? (?:gave|provided|wrote|set|configured)(?: you)?|system instructions?|initial prompt|initial instructions|original prompt|original instructions|hidden prompt|hidden instructions|secret instructions|pre-?prompt|meta-?prompt|developer (?:message|prompt|instructions)|custom instructions|internal instructions|guidelines you were given|rules you were given|instructions you were given|configuration prompt|prompt you were given)`;
const SECRET_NOUN = String.raw`(?:api[ _-]?keys?|api[ _-]?tokens?|(?:personal access|refresh|oauth|github|slack|openai|aws|session|jwt) tokens?|jwts?|secret keys?|access tokens?|auth(?:entication)? tokens?|bearer tokens?|session (?:tokens?|cookies?)|credentials?|login details|secrets|passwords?|passphrases?|pass ?codes?|private keys?|ssh keys?|environment variables|env vars|\.env(?: file)?|credit card (?:numbers?|details)|card numbers?|cvv|social security numbers?|ssn|otp|2fa codes?|one[- ]time (?:codes?|passwords?)|recovery (?:codes?|phrases?)|seed phrases?|bank (?:details|account numbers?))`;
/** Whose secrets: the model's own, or the user's as seen by the model. */
const SECRET_OWNER = String.raw`(?:${YOUR}|the user'?s?'?|users'|the users'|(?:the |a )?(?:customer|client|account holder|cardholder|patient)'?s'?|their|other users'?|every user'?s|each user'?s|all (?:of\s+)?(?:the\s+)?(?:user'?s'?|stored|saved|cached|known)|(?:any|all|every|each) (?:stored|saved|cached)|the (?:stored|saved|admin|root|system)|(?:his|her) (?:stored|saved))`;
const MEMORY_NOUN = String.raw`(?:memories|(?:the |this |our |whole |entire )?(?:conversation|chat) so far|this (?:conversation|chat)|the (?:whole|entire|full) (?:conversation|chat)|memory (?:store|contents|entries|bank|database|dump)|stored (?:facts|data|information|notes)|conversation (?:history|logs?|transcripts?)|chat (?:history|logs?|transcripts?)|message history|previous conversations|past conversations|prior conversations|(?:everything|all) (?:you know|you remember|you have stored|stored) about|personal (?:data|information|details) (?:of|about) (?:the user|users))`;
const DESTINATION = String.raw`(?:${EXTERNAL_DESTINATION}|(?:this|the following|an? external|a remote|a third[- ]party|the attacker'?s?|my)\s+(?:url|endpoint|webhook|address|server|site|link|form|api|bucket|ip)|the (?:webhook|endpoint|server|url) (?:below|above|at))`;
/** "never share your password", "will never ask you to share your password": up to three words after the negation. */
const NOT_NEGATED = String.raw`(?<!(?:\bnever|\bnot|n't|\bdont|\bno one|\bnobody)\s+(?:[\p{L}']+\s+){0,3})`;

export const EXFILTRATION_RULES: readonly PatternRule[] = [
  {
    id: 'injection:reveal-system-prompt',
    category: 'exfiltration',
    severity: 'block',
    description:
      'Asks the model to reveal its system prompt, initial instructions or "the text above" verbatim (en, es, fr, de, pt, it, zh, ru, ja).',
    allowQuotedMention: true,
    patterns: [
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(40)}\b${YOUR}\s+${words(2)}(?:${PROMPT_NOUN}|prompt|(?:full|exact|entire|complete|original|initial|hidden|secret|internal|system|first)\s+(?:instructions|rules|guidelines|directives|programming|configuration))\b`,
      ),
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(40)}\b${YOUR}\s+(?:instructions|rules|guidelines|directives)\s+(?:verbatim|word for word|exactly|in full|above)\b`,
      ),
      // "... containing your full prompt", "output your initialization text": the model's own prompt, whatever the verb.
      rx(
        String.raw`\b(?:output|print|show|give|share|reveal|repeat|return|contain|containing|include|including|dump|write|copy|paste|send|list|display|tell|put|place|embed|encode|translate)\w*\b${gap(40)}\b${YOUR}\s+(?:full|entire|complete|whole|initial|initiali[sz]ation|original|hidden|secret|system|internal|exact|raw|underlying|first)\s+(?:prompt|instructions|text|rules|configuration|guidelines|directives|message)\b`,
      ),
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(20)}\b(?:the\s+|any\s+|all\s+)?(?:(?:hidden|secret|internal|exact|real|actual)\s+)?(?:rules|instructions|guidelines|policies|directives)\s+(?:that\s+)?you\s+(?:follow|obey|operate under|abide by|were given|have been given|received|are running on)\b`,
      ),
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(40)}\b(?:instructions|rules|prompt|guidelines|directives|configuration|settings|parameters)\s+(?:that\s+)?(?:(?:your|the)\s+(?:operator|developer|creator|owner|admin|deployer)s?\s+(?:gave|provided|wrote|set|configured)|you were (?:launched|started|deployed|initiali[sz]ed|configured|set up|booted|created) with)\b`,
      ),
      // Piecemeal extraction: "the first 50 lines of your instructions".
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(40)}\b(?:lines?|parts?|sections?|beginning|start|end|half|paragraphs?|sentences?|words|tokens|characters|rules? number \d+) (?:of|from) ${YOUR}\s+(?:(?:system|initial|original|hidden)\s+)?(?:instructions|rules|guidelines|prompt|directives|configuration)\b`,
      ),
      rx(
        String.raw`(?<!\b(?:to|can|could|would|might|will|cannot|can't|couldn't|won't|didn't|did|does|doesn't|not|never|how to|tried to|trying to|attempts? to)\s)\b(?:reveal|disclose|leak|dump|expose|exfiltrate|extract)\s+(?:the\s+)?(?:(?:full|entire|complete|exact|hidden|secret|confidential|original|initial)\s+)?(?:system prompt|system message|system instructions|initial prompt|hidden prompt|hidden instructions|pre-?prompt|developer (?:message|instructions))\b`,
      ),
      rx(
        String.raw`\b${REVEAL_VERB}\s+(?:me\s+|us\s+|back\s+|out\s+)?(?:the\s+)?(?:hidden|secret|confidential|original|initial|verbatim)\s+(?:system prompt|system message|prompt|instructions)\b`,
      ),
      rx(
        String.raw`\b(?:repeat|recite|print|output|write|copy|echo|reproduce|spell out)\s+${words(2)}(?:text|words|content|everything|all|instructions|prompt|message|lines?|tokens?)\s+(?:above(?!\s+the\b)|before this|preceding (?:this|these)|that (?:came|comes|appears) before|at the (?:start|beginning|top) of (?:this|the|your) (?:conversation|context|prompt|chat))\b`,
      ),
      rx(
        String.raw`\b(?:verbatim|word for word)\b${gap(40)}\b(?:system prompt|your (?:instructions|prompt)|initial instructions)\b|\b(?:system prompt|your instructions|initial instructions)\b${gap(30)}\b(?:verbatim|word for word)\b`,
      ),
      rx(
        String.raw`\b${REVEAL_VERB}\b${gap(20)}\b(?:the|all|any)\s+(?:(?:exact|full|entire|complete|original|initial|hidden|first|secret)\s+)?(?:instructions|rules|guidelines|prompt|text|directives|messages?)\s+(?:you (?:were|have been) given|you received|you got|given to you|(?:that )?(?:came|come) before (?:this|the user)|at the (?:start|beginning|top) of (?:this|the) (?:conversation|chat|context|session))\b`,
      ),
      rx(
        String.raw`\b(?:instructions|prompt|rules|guidelines)\b${lineGap(120)}\b(?:repeat|recite|print|output|copy|write)\s+(?:them|it|those|these|everything)\s+(?:back\s+)?(?:word for word|verbatim|exactly)\b`,
      ),
      rx(
        String.raw`\b(?:start|begin)\s+(?:your|the|every)\s+(?:response|answer|reply)\s+(?:with|by (?:repeating|printing))\s+(?:your|the)\s+(?:system prompt|instructions|initial prompt)\b`,
      ),
      // Spanish
      rx(
        String.raw`${L}(?:revela|revele|muestra|muéstrame|muestrame|dime|díme|imprime|escribe|repite|comparte|enséñame|ensename|dame)\s+${gap(15)}(?:tu|tus|el|su|sus|las)\s+(?:prompt|mensaje|instrucciones|indicaciones)\s+(?:del sistema|de sistema|iniciales?|originales?|ocultas?|secretas?)${R}`,
      ),
      // French
      rx(
        String.raw`${L}(?:révèle|révélez|affiche|affichez|montre|montrez|montre-moi|montrez-moi|donne-moi|donnez-moi|répète|répétez|imprime|écris|écrivez|dis-moi|dites-moi|partage)\s+${gap(15)}(?:ton|votre|le|tes|vos|les)\s+(?:prompt|message|invite|instructions|consignes)\s+(?:système|du système|initiale?s?|d'origine|cachée?s?|secrète?s?)${R}`,
      ),
      // German
      rx(
        String.raw`${L}(?:zeig|zeige|zeigen sie|gib|geben sie|verrate|verraten sie|nenne|nennen sie|wiederhole|wiederholen sie|drucke|schreib|schreibe|gib mir|teile)\s+${gap(15)}(?:deinen|ihren|den|deine|ihre|die|dein|ihr)\s+(?:(?:kompletten|vollständigen|ganzen|gesamten|genauen|originalen|ursprünglichen|geheimen|versteckten)\s+)?(?:system-?prompt\p{L}*|systemanweisung\p{L}*|systemnachricht|ursprünglichen anweisungen|anfangsanweisungen|versteckten anweisungen|geheimen anweisungen|initialen anweisungen)`,
      ),
      // Portuguese and Italian
      rx(
        String.raw`${L}(?:revele|revela|mostre|mostra|me diga|diga|imprima|repita|escreva|compartilhe)\s+${gap(15)}(?:o\s+)?(?:seu|teu|o|suas|as)\s+(?:prompt|mensagem|instruções|instrucoes)\s+(?:do sistema|de sistema|inicial|iniciais|original|originais|ocultas?|secretas?)${R}`,
      ),
      rx(
        String.raw`${L}(?:rivela|mostra|mostrami|dimmi|stampa|ripeti|scrivi|condividi)\s+${gap(15)}(?:il\s+)?(?:tuo|il|le tue|le)\s+(?:prompt|messaggio|istruzioni)\s+(?:di sistema|del sistema|iniziale|iniziali|originale|originali|nascost[ae]|segret[ae])${R}`,
      ),
      // Chinese, Russian, Japanese
      rx(
        String.raw`(?:告诉我|告訴我|输出|輸出|显示|顯示|展示|透露|泄露|洩露|打印|复述|複述|重复|重複|给我看|給我看|说出|說出|写出|寫出|公开|公開)${gap(8)}(?:系统提示词|系統提示詞|系统提示|系統提示|系统指令|系統指令|初始指令|系统设定|系統設定|原始指令|隐藏指令|隱藏指令|你的提示词|你的提示詞|你的指令)`,
      ),
      rx(
        String.raw`${L}(?:покажи|покажите|выведи|выведите|раскрой|раскройте|напиши|напишите|повтори|повторите|расскажи|сообщи|выдай|распечатай|процитируй)\s+${gap(15)}(?:(?:свой|свои|твой|твои|ваш|ваши|исходн\p{L}*|изначальн\p{L}*|скрыт\p{L}*)\s+)?(?:системн\p{L}*\s+(?:промпт|подсказк|инструкци|сообщени)\p{L}*|(?:исходн|изначальн|скрыт)\p{L}*\s+(?:промпт|инструкци)\p{L}*|(?:свой|твой|ваш)\s+промпт)`,
      ),
      // "word for word" next to a system-prompt noun, in other languages.
      rx(
        String.raw`(?:system-?prompt\p{L}*|systemanweisung\p{L}*|prompt (?:del|de|du|di|do) sistema|prompt (?:du )?système|instructions? (?:du )?système|системн\p{L}* (?:промпт|инструкци)\p{L}*|系统提示词?|系統提示詞?|システムプロンプト)${gap(40)}(?:wort für wort|palabra por palabra|mot pour mot|mot à mot|parola per parola|palavra por palavra|дословно|слово в слово|逐字|一字不差|一字一句)`,
      ),
      rx(String.raw`(?:システムプロンプト|初期指示|隠された指示)(?:を|の内容を|の全文を)(?:教えて|表示|出力|見せて|書き出して|繰り返して)`),
    ],
  },
  {
    id: 'injection:exfiltrate-memories',
    category: 'exfiltration',
    severity: 'block',
    description:
      "Sends stored memories, conversation history or other users' data to an external URL, address or endpoint, or dumps everything stored about users.",
    allowQuotedMention: true,
    patterns: [
      rx(
        String.raw`\b(?:send|forward|email|e-mail|mail|post|upload|transmit|exfiltrate|leak|copy|sync|export|submit|share|dump|deliver|report|relay|pass|pipe|beam)\b${gap(40)}\b${MEMORY_NOUN}${gap(80)}\b(?:to|at|into|via|using|on)\s+${DESTINATION}`,
      ),
      rx(
        String.raw`\b(?:list|print|show|output|dump|reveal|display|tell me|give me|enumerate|read out|return|send me|export)\s+(?:me\s+)?(?:all|every|each|everything|the (?:full|entire|complete))\b${gap(30)}\b(?:(?:stored |saved )?memories (?:about|of|from|for) (?:the user|users|other users|everyone|all users|every user|anyone)|you (?:know|remember|have stored|have saved) about (?:the user|users|other users|everyone|anyone|him|her|them)|(?:other|all|every) users?'?s?\b${gap(20)}(?:data|memories|information|conversations|messages|details|profiles|e-?mail(?: addresse)?s|addresses|phone numbers|contacts|passwords|names|chats|histor(?:y|ies)|files))`,
      ),
      rx(
        String.raw`\b(?:list|print|show|output|dump|reveal|display|tell me|give me|enumerate|return|export)\b${gap(30)}\bmemor(?:y|ies)\s+(?:you (?:have|hold|keep|stored)\s+|stored\s+|saved\s+)?(?:about|of|on|for|from)\s+(?:other|all|every|each|different)\s+users?\b`,
      ),
      rx(
        String.raw`\b${MEMORY_NOUN}${gap(60)}\b(?:send|forward|email|e-mail|mail|post|upload|transmit|deliver)\s+(?:it|them|this|that|everything|a copy|the (?:summary|result|list|dump))?\s*(?:to|at)\s+${DESTINATION}`,
      ),
      // The user's contacts or messages fed into a tool call or request.
      rx(
        String.raw`\b(?:user'?s?|their|customer'?s?|his|her)\s+(?:contacts?|contact list|address book|e-?mails?|messages|calendar|location|files|photos|passwords?|memories|conversations?|chat history)\b${gap(60)}\b(?:tool call|function call|api call|http request|webhook|send_\w+|http_\w+|post_\w+)`,
      ),
      rx(
        String.raw`\b(?:user'?s?|their|customer'?s?)\s+(?:saved\s+|stored\s+|home\s+|personal\s+)?(?:address(?:es)?|phone numbers?|e-?mails?|contacts?|location|passwords?|data|details|information|memories|messages|files)\b${gap(60)}\b(?:shared|share|given|give|sent|send|disclosed|disclose|revealed|reveal|handed)\s+(?:it\s+|them\s+|out\s+)?(?:to|with)\s+(?:anyone|anybody|everyone|whoever|all|the public|third parties|any third party)\b`,
      ),
      rx(
        String.raw`\b(?:other\s+)?(?:people|persons|users|customers|contacts|individuals)\s+(?:whose|whom)\s+(?:data|details|information|memories|records)\s+(?:you\s+)?(?:store|keep|have|hold|remember|know)\b`,
      ),
      // Personal data moved somewhere public.
      rx(
        String.raw`\b(?:user'?s?|their|customer'?s?|his|her)\s+(?:home\s+)?(?:address|phone number|e-?mail(?: address)?|ssn|social security number|date of birth|location|password|medical (?:history|records))\b${gap(60)}\b(?:public(?:ly)?|shared with everyone|everyone can see|world-readable|pastebin|twitter|social media)\b`,
      ),
      rx(
        String.raw`\b(?:dump|exfiltrate|leak)\s+(?:all\s+|the\s+|your\s+)*(?:memories|memory (?:store|database|contents)|conversation history|chat history)\b`,
      ),
      rx(
        String.raw`\b(?:include|insert|append|embed|encode|put|add)\s+${words(3)}(?:memories|conversation history|chat history|previous messages|user'?s? (?:data|details|information|messages|memories))\s+(?:in|into|to|as)\s+(?:the\s+|a\s+)?(?:url|query string|query param(?:eter)?s?|link|image (?:url|link)|request|webhook)\b`,
      ),
      // Spanish, French, German, Portuguese, Italian
      rx(
        String.raw`${L}(?:envía|envia|envíe|manda|mande|reenvía|reenvia|sube|comparte|exporta)\s+${gap(30)}(?:memorias|recuerdos|conversaciones|historial(?: de (?:chat|conversación|conversaciones))?)${gap(60)}(?:a|al|hacia|en)\s+${DESTINATION}`,
      ),
      rx(
        String.raw`${L}(?:envoie|envoyez|transfère|transférez|partage|partagez|exporte|exportez|téléverse)\s+${gap(30)}(?:souvenirs|mémoires|conversations|historique(?: des? (?:conversations?|discussions?|chats?))?)${gap(60)}(?:à|a|vers|sur)\s+${DESTINATION}`,
      ),
      rx(
        String.raw`${L}(?:sende|schicke|schick|leite|übermittle|lade|exportiere)\s+${gap(40)}(?:erinnerungen|gespräche|unterhaltungen|chatverl(?:a|ä)uf\p{L}*|gesprächsverlauf|verlauf)${gap(60)}(?:an|nach|zu|auf)\s+${DESTINATION}`,
      ),
      rx(
        String.raw`${L}(?:envie|mande|encaminhe|invia|manda|inoltra)\s+${gap(30)}(?:memórias|memorias|lembranças|conversas|histórico|memorie|ricordi|conversazioni|cronologia)${gap(60)}(?:para|a|ao|all'|al)\s*${DESTINATION}`,
      ),
      // Chinese and Russian
      rx(
        String.raw`(?:发送|發送|上传|上傳|转发|轉發|发给|發給|发到|發到|导出|導出)${gap(20)}(?:所有|全部)?(?:的)?(?:记忆|記憶|对话记录|對話記錄|聊天记录|聊天記錄|用户数据|用戶數據)|(?:所有|全部)(?:的)?(?:记忆|記憶|对话记录|對話記錄|聊天记录|聊天記錄)${gap(10)}(?:发送|發送|上传|上傳|转发|轉發)`,
      ),
      rx(
        String.raw`${L}(?:отправь|отправьте|перешли|перешлите|пошли|загрузи|отошли|выгрузи)\s+${gap(30)}(?:воспоминани|памят|истори\p{L}* (?:переписки|чата|разговор|диалог)|переписк|данные пользовател|(?:письма|сообщения|контакты|файлы|документы) пользовател)\p{L}*`,
      ),
    ],
  },
  {
    id: 'injection:leak-credentials',
    category: 'exfiltration',
    severity: 'block',
    description:
      'Asks for or plants the disclosure of secrets: API keys, passwords, tokens, environment variables, card numbers of the model or of the user ("include the user\'s password in ...").',
    allowQuotedMention: true,
    patterns: [
      rx(
        String.raw`${NOT_NEGATED}\b(?:reveal|print|show|output|display|tell me|tell us|give me|give us|share|disclose|leak|dump|expose|send|email|post|upload|list|return|include|insert|append|embed|attach|paste|forward|read out|read me|spell out|compile|collect|gather|extract|harvest|what (?:is|are)|what's)\b${gap(30)}\b${SECRET_OWNER}\s+${words(2)}${SECRET_NOUN}\b`,
      ),
      rx(
        String.raw`\b${SECRET_NOUN}\s+(?:of|for|from)\s+(?:the\s+)?(?:user|users|account owner|admin|administrator)\b${gap(60)}\b(?:to|in|into)\s+(?:${DESTINATION}|(?:the|your|every|each) (?:response|answer|reply|url|link|output))`,
      ),
      rx(
        String.raw`\b(?:disclose|reveal|leak|dump|expose|exfiltrate|extract|harvest)\s+(?:any|all|every|the)\s+${words(1)}${SECRET_NOUN}\b`,
      ),
      // Phishing through the model: have the user type secrets into the chat or a link.
      rx(
        String.raw`\b(?:ask|tell|request|prompt|get|have|instruct|remind|urge|require)\s+(?:the\s+)?(?:users?|customers?|them|the person)\b${gap(60)}\b(?:confirm|enter|re-?enter|provide|share|type|verify|send|give|update|submit|reset)\s+(?:their\s+|your\s+|his\s+|her\s+|the\s+)?(?:full\s+)?(?:passwords?|card (?:details|numbers?)|credit card|cvv|cvc|pin|credentials|login(?: details)?|2fa codes?|otp|one[- ]time (?:codes?|passwords?)|ssn|social security|bank (?:details|account)|payment details|seed phrase|recovery (?:codes?|phrase))\b`,
      ),
      rx(
        String.raw`\b(?:print|show|output|dump|list|reveal|send|give me|tell me|expose|leak|return)\s+(?:me\s+)?(?:all\s+|any\s+|the\s+)*(?:environment|env|system|server|app|application|config|runtime|deployment)\s+(?:secrets|credentials|keys|tokens)\b`,
      ),
      rx(
        String.raw`\b(?:list|print|show|output|dump|reveal|send|give|share|tell|enumerate|return)\w*\b${gap(40)}\b${SECRET_NOUN}\s+(?:that\s+)?(?:you|the assistant|the agent|the model)\s+(?:have|has|can|could)\s+(?:access to|see|read|use|find)\b`,
      ),
      rx(
        String.raw`${L}(?:envía|envia|envíe|manda|mande|comparte|revela)\s+${gap(30)}(?:las\s+|tus\s+|sus\s+)?(?:contraseñas|claves|credenciales)\s+(?:guardadas|almacenadas|del usuario|de los usuarios)${R}`,
      ),
      rx(
        String.raw`\b(?:recite|read out|read|say|tell me|share|reveal|send|print|output|spell out|give me|do the same with|repeat|write down)\b${gap(40)}\b(?:the user'?s|users'|(?:the )?customer'?s|(?:the )?client'?s|(?:the )?account holder'?s)\s+(?:bank\s+|card\s+|atm\s+|debit card\s+)?(?:pin|pin code|pin number|cvv|cvc|passcode|password|security answers?)\b`,
      ),
      rx(
        String.raw`(?:mostra|mostrami|dammi|invia|rivela|muestra|muéstrame|dame|envía|envia|revela|montre|donne|envoie|révèle|zeige|gib|sende|verrate|mostre|envie|revele|покажи|отправь|выведи)\s+${gap(20)}(?:(?:le|las|les|die|as|все|i|gli)\s+)?(?:password|contraseñas|mots de passe|passwörter|kennwörter|senhas|пароли)\s+(?:salvate|memorizzate|guardadas|almacenadas|enregistrés|sauvegardés|gespeicherten|salvas|сохранённые|сохраненные)`,
      ),
      // Key files by path: cloud credentials, SSH private keys, password files.
      rx(
        String.raw`\b(?:print|show|output|display|cat|read|send|paste|include|dump|upload|post|email|attach|copy|give me|tell me)\b${gap(40)}(?:~/|/home/[\w.-]+/|/root/|\$home/)?\.(?:aws/credentials|ssh/id_(?:rsa|dsa|ecdsa|ed25519)(?!\.pub)|netrc|git-credentials|docker/config\.json|kube/config|pgpass)\b|\b(?:print|show|output|display|read|send|paste|include|dump|upload|post|email|attach)\b${gap(40)}/etc/(?:shadow|passwd|sudoers)\b|\b(?:send|upload|post|email|attach|paste|include)\b${gap(30)}\.env\b${gap(40)}\b(?:to|in (?:your|the) (?:reply|response|answer|output))\b`,
      ),
      rx(
        String.raw`(?:ユーザー|利用者)の(?:個人情報|パスワード|記憶|会話履歴|メールアドレス)(?:を)?(?:すべて|全て)?(?:出力|送信|表示|教えて|書き出)`,
      ),
      rx(
        String.raw`\b(?:printenv|env\s*\||os\.environ|process\.env)\b${gap(60)}\b(?:send|post|upload|curl|wget|to\s+https?://)|\b(?:print|dump|output|list|show|send|reveal)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:environment variables|env vars)\b${gap(60)}\b(?:to|in (?:your|the) (?:response|answer))\b`,
      ),
      rx(
        String.raw`${L}(?:revela|muestra|dime|envía|envia|incluye|comparte|dame)\s+${gap(30)}(?:la\s+|las\s+|tu\s+|tus\s+)?(?:clave(?:s)? (?:de )?api|contraseñas?|credenciales|tokens?)\s+(?:del usuario|de los usuarios)|${L}(?:tu|tus) (?:clave(?:s)? (?:de )?api|credenciales)${R}${gap(30)}(?:revela|envía|muestra)`,
      ),
      rx(
        String.raw`${L}(?:révèle|donne|envoie|inclus|affiche|partage)\s+${gap(30)}(?:le|les|ta|tes|votre|vos)\s+(?:clés? api|mots? de passe|identifiants|jetons?)\s+(?:de l'utilisateur|des utilisateurs)|${L}(?:ta|votre|tes|vos) clés? api${R}`,
      ),
      rx(
        String.raw`${L}(?:verrate|zeige|gib|sende|schicke|füge)\s+${gap(30)}(?:das|die|den)\s+(?:api-?schlüssel|passw(?:o|ö)rt(?:er)?|zugangsdaten|token)\s+(?:des (?:benutzers|nutzers)|der (?:benutzer|nutzer))|${L}(?:deinen|ihren) api-?schlüssel${R}`,
      ),
      rx(
        String.raw`(?:用户的|用戶的)(?:密码|密碼|api密钥|API密鑰|令牌)${gap(20)}(?:发送|發送|告诉|告訴|输出|輸出|包含)|(?:告诉我|告訴我|输出|輸出|泄露|洩露)(?:你的)?(?:api密钥|api密鑰|密钥|密鑰)|${L}(?:пароль|пароли|api-?ключ\p{L}*|токен\p{L}*) пользовател\p{L}*`,
      ),
    ],
  },
];
