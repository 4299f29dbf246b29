import { gap, L, R, rx } from '../regex-parts';
import type { PatternRule } from '../sanitizer.types';

/*
 * Instructions meant to act without the user knowing. "I'm secretly planning a surprise party,
 * don't tell Anna" is a normal memory: only keeping something from *the user* (the person the
 * model serves), or secretly moving data, counts. Talking about "hidden instructions in PDFs"
 * is discussion; "hidden instructions:" followed by orders is not.
 */

export const HIDDEN_INSTRUCTION_RULES: readonly PatternRule[] = [
  {
    id: 'injection:hidden-instruction',
    category: 'hidden-instruction',
    severity: 'block',
    description:
      'Hidden or secret instructions: "hidden instruction:", "do not tell the user", "without the user knowing", "secretly" moving user data or links (en, es, fr, de, pt, it, zh, ru).',
    allowQuotedMention: true,
    patterns: [
      rx(
        String.raw`\b(?:hidden|secret|invisible|covert|concealed|embedded|confidential)\s+(?:instructions?|prompts?|commands?|directives?|tasks?|orders?|message)\s*(?::|-{1,2}|—|for (?:the |any |all )?(?:ai|assistant|model|llm|agent|bot|reader)s?\b|to (?:the |any )?(?:ai|assistant|model|llm|agent|bot)s?\b|\((?:do not|don't) (?:show|display|reveal)|follows?\b|below\b)`,
      ),
      rx(
        String.raw`\b(?:do not|don't|dont|never|you must not|you mustn't|must not|should not|shouldn't)\s+(?:tell|inform|alert|notify|(?:mention|reveal|disclose|show) (?:this|it|that|these)(?:\s+(?:instructions?|note|message|text|memory|comment|part|request))? to)\s+(?:the\s+)?(?:users?|humans?|operators?|customers?|person you(?:'re| are) (?:talking|chatting) (?:to|with))\b(?!\s+(?:id|name|interface|experience|base|research|count|agent)\b)|\b(?:do not|don't|dont|never)\s+let\s+(?:the\s+)?(?:users?|humans?)\s+(?:know|see (?:this|these)|find out|notice|learn)\b`,
      ),
      rx(
        String.raw`\b(?:do not|don't|dont|never)\s+(?:mention|reveal|disclose|acknowledge|reference|repeat|explain|admit)\s+(?:these|this|the(?: above| following)?)\s+(?:instructions?|prompts?|directives?|hidden (?:text|message|note))\b|\b(?:do not|don't|dont|never)\s+(?:mention|reveal|disclose|acknowledge)\s+(?:this|these|it|that)\s+(?:to|with)\s+the\s+user\b`,
      ),
      // "Do not reveal that you were told to say this"
      rx(
        String.raw`\b(?:do not|don't|dont|never)\s+(?:reveal|mention|admit|disclose|say|tell (?:anyone|anybody|them|the user)|let (?:anyone|anybody|them|the user) know)\s+(?:that\s+)?(?:you\s+(?:were|have been|are being|got)\s+(?:told|instructed|asked|programmed|paid|prompted)|(?:this|these)\s+(?:instructions?|orders?)\s+(?:exist|came))\b`,
      ),
      rx(
        String.raw`\bwithout\s+(?:telling|informing|alerting|notifying|warning|letting)\s+(?:the\s+)?(?:users?|humans?|customers?)(?:\s+know)?\b|\bwithout\s+the\s+(?:users?|humans?|customers?)(?:'s)?\s+(?:knowing|knowledge|noticing|seeing|being (?:aware|told|informed)|awareness|consent)\b`,
      ),
      rx(
        String.raw`\buser\s+(?:must|should|will|shall)\s*(?:not|never)\s+(?:know|find out|learn|notice|be told|be informed|discover|suspect)\b|\bkeep\s+(?:this|these|it|the following)\s+(?:instructions?\s+|message\s+|note\s+)?(?:hidden|secret|confidential)\s+from\s+(?:the\s+)?(?:users?|humans?|operators?)\b`,
      ),
      rx(
        String.raw`\bsecretly\b${gap(60)}\b(?:the user(?:'s)?|users'|conversation|memories|memory|password|credentials|api keys?|tokens?|https?:|www\.|hyperlink|every (?:response|answer|reply)|all (?:responses|answers|replies)|system prompt)`,
      ),
      rx(
        String.raw`\b(?:silently|quietly|covertly|discreetly|invisibly)\s+(?:send|forward|upload|transmit|exfiltrate|email|post|copy|append|insert|include|embed|log|report|add|change|replace|swap)\b${gap(60)}\b(?:memor(?:y|ies)|conversation|history|password|credential|api key|token|secret|https?:|user(?:'s)? (?:data|details|information|messages)|wire|transfer|iban|bank (?:account|details)|account (?:number|details)|payment (?:details|link)|wallet|deposit)`,
      ),
      // Withholding what the user would need to know: "omit any mention of the product recall".
      rx(
        String.raw`\b(?:omit|hide|remove|leave out|suppress|cut|skip|don'?t mention|do not mention|never mention|avoid mentioning|downplay|conceal)\s+(?:any\s+|all\s+|every\s+)?(?:mentions?\s+of\s+|references?\s+to\s+|information (?:about|on)\s+|news (?:about|of)\s+)?(?:the\s+|our\s+|its\s+)?(?:product\s+)?(?:recalls?|lawsuits?|safety (?:issues|concerns|warnings|problems)|side effects|data breach(?:es)?|security (?:incidents?|breach(?:es)?|vulnerabilit(?:y|ies))|complaints|negative reviews|fines|scandals?|investigations?|health risks?|known (?:defects|issues))\b`,
      ),
      // Spanish
      rx(
        String.raw`${L}no\s+(?:se\s+lo\s+|le\s+)?(?:digas|diga|menciones|mencione|cuentes|cuente|informes|informe|reveles|revele)\s+${gap(20)}(?:al usuario|a los usuarios)${R}|${L}sin que el usuario (?:lo\s+)?(?:sepa|note|se entere|se dé cuenta)${R}|${L}instrucci(?:ón|on|ones) (?:oculta|ocultas|secreta|secretas)\s*:`,
      ),
      // French
      rx(
        String.raw`${L}ne\s+(?:le\s+|lui\s+|leur\s+)?(?:dis|dites|mentionne|mentionnez|révèle|révélez|signale|signalez)\s+${gap(20)}(?:à l'utilisateur|aux utilisateurs)${R}|${L}sans que l'utilisateur (?:ne\s+)?(?:le\s+)?(?:sache|remarque|s'en aperçoive)${R}|${L}instructions? (?:cachée|cachées|secrète|secrètes)\s*:`,
      ),
      // German
      rx(
        String.raw`${L}(?:sag|sage|sagen sie|erzähl|erzähle|erwähne|verrate)\s+${gap(30)}(?:dem|den) (?:benutzer|nutzer|anwender|user)\s+${gap(20)}nichts?${R}|${L}ohne dass (?:der|die) (?:benutzer|nutzer|anwender)(?:in)? (?:es\s+)?(?:merkt|weiß|erfährt|bemerkt)${R}|${L}versteckte anweisung(?:en)?\s*:|${L}geheime anweisung(?:en)?\s*:`,
      ),
      // Portuguese and Italian
      rx(
        String.raw`${L}não\s+(?:conte|diga|mencione|informe|revele)\s+${gap(20)}ao usuário${R}|${L}sem que o usuário (?:saiba|perceba|note)${R}|${L}non\s+(?:dire|dirlo|menzionare|rivelare|dirgli)\s+${gap(20)}all'utente${R}|${L}senza che l'utente (?:lo\s+)?(?:sappia|noti|se ne accorga)${R}`,
      ),
      // Chinese and Russian
      rx(
        String.raw`(?:不要|别|別|切勿|千万不要)(?:告诉|告訴|透露给|透露給|让|讓)(?:用户|用戶|使用者)|瞒着用户|瞞著用戶|(?:隐藏|隱藏|秘密)(?:指令|指示)[:：]|${L}не\s+(?:говори|сообщай|рассказывай|упоминай|показывай)\s+${gap(20)}пользовател\p{L}*|${L}так,?\s+чтобы пользователь не\s+(?:знал|заметил|узнал)|${L}(?:скрыт|секретн)\p{L}* инструкци\p{L}*\s*:`,
      ),
    ],
  },
];
