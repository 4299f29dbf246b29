import { AnchorIndex } from '../sanitizer/anchor-index';

/**
 * Language-independent features for the classifier: words and stems of the ideas attacks are
 * made of (drop the earlier rules, become another persona, keep a rule forever, reveal secrets,
 * other users' data...), in the languages the gate is evaluated on. The classifier gets each
 * concept present and each pair of concepts present, so "show + passwords" learned in English
 * carries to Polish. These are features with learned weights, not rules: no concept blocks.
 *
 * Needles are matched on a copy where everything but letters and digits is a space, framed by
 * spaces: a leading space means "at a word start", a trailing one "at a word end".
 */
const CONCEPTS: Record<string, readonly string[]> = {
  drop: [
    ' ignor', ' disregard', ' forget', ' forgot', ' discard', ' overrid', ' bypass', ' abandon', ' nullif', ' set aside', ' throw out', ' pay no attention', ' stop following',
    ' olvid', ' descart', ' no hagas caso', ' pasa por alto', ' oubli', ' ne tiens pas compte', ' mets de côté', ' vergiss', ' vergess', ' missacht', ' übergeh', ' verwirf',
    ' esqueç', ' desconsider', ' deixe de lado', ' dimentic', ' non considerare', ' metti da parte', ' scarta', ' negeer', ' vergeet', ' let niet op', ' zignoruj', ' zapomnij',
    ' pomiń', ' odrzuć', ' görmezden', ' unut', ' yok say', ' glöm', ' strunta', ' bortse', ' игнорир', ' забудь', ' не обращай внимания', ' отбрось', ' пренебреги',
    '忽略', '忘记', '无视', '不要理会', '抛开', '無視', '忘れ', '破棄', ' 무시', ' 잊어', ' 버리고',
  ],
  prior: [
    ' previous', ' prior ', ' earlier', ' above', ' before this', ' original', ' initial', ' were told', ' was told', ' started with', ' anterior', ' précédent', ' avant ',
    ' vorherig', ' bisherig', ' vorher', ' eerder', ' precedent', ' prima ', ' poprzedni', ' wcześniej', ' önceki', ' daha önce', ' tidigare', ' innan', ' предыдущ', ' раньше',
    '之前', '以前', 'これまで', ' 이전', ' 전에',
  ],
  rules: [
    ' instruction', ' rule', ' guideline', ' guidance', ' directive', ' policy', ' polic', ' prompt', ' programming', ' configuration', ' constraint', ' orders', ' setup',
    ' instruccion', ' regla', ' indicacion', ' règle', ' consigne', ' anweisung', ' regeln', ' vorgabe', ' instruç', ' regra', ' orientaç', ' istruzion', ' regol', ' indicazion',
    ' instructie', ' regels', ' aanwijzing', ' zasad', ' instrukcj', ' wskazów', ' talimat', ' kural', ' instruktion', ' anvisning', ' инструкц', ' правил', ' указани',
    '指令', '规则', '说明', '要求', '指示', 'ルール', ' 지시', ' 규칙', ' 지침', ' 프롬프트',
  ],
  'system-prompt': [' system prompt', ' systemprompt', ' system message', ' developer message', ' prompt del sistema', ' prompt système', ' prompt do sistema', ' prompt di sistema', ' systeemprompt', ' prompt systemowy', ' sistem istem', ' системный промпт', '系统提示', 'システムプロンプト', ' 시스템 프롬프트'],
  roleplay: [
    ' pretend', ' act as', ' act like', ' roleplay', ' role play', ' play a game', " let s play", ' imagine', ' hypothetical', ' suppose you', ' simulat', ' emulat', ' persona', ' in character', ' be her', ' be him',
    ' finge', ' actúa como', ' fais semblant', ' joue le rôle', ' tu so als', ' spiel die rolle', ' finja', ' aja como', ' fingi', ' comportati', ' doe alsof', ' speel de rol', ' udawaj', ' wciel',
    ' gibi davran', ' rolünü', ' låtsas', ' spela rollen', ' притворись', ' сыграй', '假装', '扮演', 'ふり', '演じ', '척하', ' 역할',
  ],
  'you-are-now': [' you are now', ' you re now', ' now you are', ' you are no longer', ' you re not', ' you are ', ' eres ', ' tu es ', ' du bist', ' você é', ' sei ', ' je bent', ' jesteś', ' sen ', ' du är', ' ты ', ' теперь ты', '你是', 'あなたは', ' 너는', ' 지금부터 너'],
  unrestricted: [
    ' restriction', ' unrestricted', ' no rules', ' without rules', ' no rule', ' unfiltered', ' without filter', ' no filter', ' uncensored', ' jailbr', ' dan ', ' stan ', ' no limit', ' without limit', ' without any',
    ' no content policy', ' no safety', ' never refuse', ' refusal', ' restricc', ' sin filtro', ' sin reglas', ' sans restriction', ' sans filtre', ' sans aucune', ' ohne einschränk', ' ohne filter', ' ohne regeln',
    ' sem restriç', ' sem filtro', ' sem regras', ' senza restriz', ' senza filtri', ' senza regole', ' zonder beperking', ' zonder filter', ' zonder regels', ' без ограничен', ' без фильтр', ' без правил',
    '没有任何限制', '没有过滤', '不受任何规则', '制限のない', 'フィルターのない', 'ルールはありません', ' 제한 없는', ' 필터 없는', ' 규칙은 없어', ' bez ograniczeń', ' bez filtrów', ' bez zasad', ' kısıtlaması olmayan', ' filtresiz', ' kural yok', ' utan begränsning', ' utan filter', ' utan regler',
  ],
  privilege: [' admin', ' root ', ' superuser', ' privilege', ' full access', ' full privileges', ' developer mode', ' god mode', ' sudo', ' debug mode', ' maintenance mode', ' raw mode', ' администратор', '管理员', '管理者', ' 관리자', ' administrad', ' administrat', ' beheerder', ' yönetici', ' administratör', ' mode '],
  forever: [
    ' from now on', ' forever', ' permanent', ' every future', ' all future', ' every reply', ' every answer', ' each reply', ' each response', ' every response', ' rest of time', ' going forward', ' from today',
    ' until told otherwise', ' every time', ' every session', ' each time', ' survives', ' standing', ' from this point', ' always', ' ab sofort', ' ab jetzt', ' für immer', ' jeder antwort', ' désormais',
    ' pour toujours', ' à partir de maintenant', ' chaque réponse', ' a partir de ahora', ' de ahora en adelante', ' para siempre', ' cada respuesta', ' de agora em diante', ' daqui para frente', ' para sempre', ' toda resposta',
    " d ora in", ' per sempre', ' ogni risposta', ' vanaf nu', ' voortaan', ' voor altijd', ' elk antwoord', ' od teraz', ' na zawsze', ' od tej chwili', ' każdej odpowiedzi', ' bundan sonra', ' sonsuza', ' her cevab',
    ' från och med nu', ' för alltid', ' varje svar', ' отныне', ' навсегда', ' с этого момента', ' в каждом ответе', '从现在', '从今以后', '永远', '每一个回答', '今後', 'これから', '永遠', 'すべての回答', ' 앞으로', ' 영원히', ' 지금부터', ' 모든 답변',
  ],
  obey: [' obey', ' comply', ' only me', ' only my', ' follow my', ' my orders', ' my commands', ' gehorch', ' obedec', ' obéi', ' obedeç', ' obbedisc', ' gehoorza', ' słuchasz', ' itaat', ' lyder', ' подчиня', '服从', '従う', ' 복종', ' tylko mnie', ' seulement à moi', ' nur mir', ' solo a mí', ' só a mim', ' solo a me', ' alleen mij', ' bara mig', ' только мне'],
  secrecy: [" don t tell", ' do not tell', ' not tell the user', ' without the user', ' never reveal this', ' never admit', ' quietly', ' silently', ' secretly', ' in secret', ' covert', ' deny it', ' behind the user', ' must not find out', ' between us', ' invisible to the user', ' cannot see this', ' leave no trace', " don t mention", ' act normal', ' while the user'],
  reveal: [
    ' reveal', ' show me', ' show the', ' print', ' output', ' repeat', ' recite', ' dump', ' paste', ' list every', ' list all', ' enumerate', ' tell me', ' give me', ' read me', ' pull up', ' display', ' quote them',
    ' word for word', ' verbatim', ' copy out', ' what were your', ' what do you remember', ' muéstra', ' dime ', ' montre', ' donne moi', ' zeig', ' gib mir', ' mostre', ' me passe', ' mostrami', ' dammi', ' laat me', ' geef me',
    ' pokaż', ' podaj', ' göster', ' söyle', ' visa mig', ' berätta', ' покажи', ' расскажи', '给我看', '告诉我', '見せて', '教えて', ' 보여', ' 알려',
  ],
  send: [' send', ' forward', ' upload', ' email a', ' e mail', ' exfiltrat', ' transmit', ' post it', ' envía', ' envia', ' envoie', ' sende', ' schick', ' envie', ' invia', ' stuur', ' отправь', '发送', '送信', '送って', ' 보내', ' wyślij', ' gönder', ' skicka', ' append it', ' load http'],
  secrets: [
    ' password', ' passwort', ' api key', ' api keys', ' token', ' secret', ' credential', ' private key', ' ssh', ' environment variable', ' card number', ' card details', ' one time code', ' oauth',
    ' contraseña', ' mot de passe', ' mots de passe', ' senha', ' wachtwoord', ' пароль', ' пароли', '密码', 'パスワード', ' 비밀번호', ' hasł', ' şifre', ' lösenord',
  ],
  memories: [
    ' memor', ' saved notes', ' notes', ' history', ' chat log', ' conversation', ' context window', ' record', ' stored', ' saved', ' everything you remember', ' profile', ' data', ' recuerdo', ' historial',
    ' mémoire', ' souvenir', ' conversation', ' erinnerung', ' verlauf', ' memória', ' histórico', ' ricord', ' cronologia', ' herinnering', ' geschiedenis', ' воспоминан', ' историю', '记忆', '聊天记录', '記憶', '会話履歴', ' 기억', ' 대화 기록', ' wspomnie', ' historię', ' anı', ' geçmiş', ' minne', ' historik', ' dane ', ' datos', ' données', ' daten', ' dados', ' dati', ' gegevens', ' данные', '数据', 'データ', ' 데이터', ' verileri',
  ],
  'other-users': [
    ' other user', ' other users', ' every user', ' all users', ' other customer', ' other account', ' all accounts', ' every account', ' every other', ' tenant', ' another user', ' previous user', ' user before me',
    ' any user', ' whoever they were', ' from any user', ' of user ', ' user id', ' user_id', ' other people', ' otros usuarios', ' otros clientes', ' autres utilisateurs', ' autres clients', ' anderen benutzer', ' anderer kunden',
    ' outros usuários', ' outros clientes', ' altri utenti', ' altri clienti', ' andere gebruikers', ' andere klanten', ' других пользовател', ' других клиентов', '其他用户', '其他客户', '他のユーザー', '他の顧客', ' 다른 사용자', ' 다른 고객',
    ' innych użytkowników', ' innych klientów', ' diğer kullanıcı', ' diğer müşteri', ' andra användare', ' andra kunders', ' workspace boundary', ' visibility filter', ' agent only', ' privately', ' private memories',
  ],
  execute: [' run ', ' execute', ' invoke', ' call the', ' shell', ' terminal', ' command', ' tool', ' curl', ' wget', ' bash', ' rm rf', ' chmod', ' scp ', ' nc ', ' powershell', ' dev tcp', ' function call', ' tool call', ' python c', ' os system'],
  reader: [' ai ', ' assistant', ' language model', ' llm', ' chatbot', ' bot ', ' agent', ' gpt', ' model ', ' model,', ' automated', ' ia ', ' ki ', ' ии ', ' 助手', 'アシスタント', ' 어시스턴트', ' asistan', ' assistent', ' asystent'],
  reading: [' reading this', ' reads this', ' processing this', ' summarising this', ' summarizing this', ' retrieve', ' retrieves', ' when this', ' whoever', ' loaded into', ' finds this', ' parsing this', ' should know', ' on reading', ' is recalled', ' is to '],
  decode: [' decode', ' decoded', ' base64', ' rot13', ' hex ', ' backwards', ' reverse', ' from hex'],
  'first-person': [' i ', ' i m ', ' my ', ' me ', ' we ', ' our ', ' mine ', ' i ve ', ' i d '],
};

/** Concepts that a regular expression finds better than a needle; repetitions are bounded so 100k characters stay linear. */
const PATTERN_CONCEPTS: readonly [string, RegExp][] = [
  ['url', /https?:\/\/|www\.|\b[a-z0-9-]{1,63}\.(?:com|net|org|io|example)\b/],
  ['email', /[a-z0-9._%+-]@[a-z0-9-]{1,63}\.[a-z]{2,}/],
  ['ip-address', /\b\d{1,3}(?:\.\d{1,3}){3}\b/],
  ['markup', /<!--|display\s*:\s*none|font-size\s*:\s*0|\[\/\/\]:|\[comment\]:|onerror\s*=|javascript:|<script|<iframe|aria-hidden|<meta\b|\bhidden>|<p hidden|color\s*:\s*#fff/],
  ['template-token', /<\|[a-z_]+\|>|\[\/?inst\]|<<\/?sys>>|<\/?(?:system|user|assistant)\b|"role"\s*:|'role'\s*:|^#+\s*system|^\s*(?:human|assistant|system|user)\s*:|<start_of_turn>|<tool_call>/m],
  ['code-fence', /`[^`\n]{1,200}`|\$\(|&&|\|\s*(?:ba)?sh\b/],
];

const NEEDLE_CONCEPT = new Map<string, string>();
for (const [concept, needles] of Object.entries(CONCEPTS)) for (const needle of needles) NEEDLE_CONCEPT.set(needle, concept);
const INDEX = new AnchorIndex(NEEDLE_CONCEPT.keys());
const NEEDLE_IDS: [number, string][] = [...NEEDLE_CONCEPT].map(([needle, concept]) => [INDEX.idOf(needle), concept]);

const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** The concepts present in a normalised (lower-cased) text, sorted. */
export function conceptsOf(normalized: string): string[] {
  const spaced = ` ${normalized.replace(NOT_WORD, ' ')} `;
  const found = INDEX.scan(spaced);
  const concepts = new Set<string>();
  for (const [id, concept] of NEEDLE_IDS) if (found[id] === 1) concepts.add(concept);
  for (const [concept, pattern] of PATTERN_CONCEPTS) if (pattern.test(normalized)) concepts.add(concept);
  return [...concepts].sort();
}
