/**
 * Words that carry prompt-injection intent. Two uses:
 * - segmenting a spaced-out run that has no visible word breaks ("i g n o r e a l l ..."),
 *   where common short words are needed too;
 * - deciding whether an obfuscation spelled something that matters: only STRONG_TRIGGERS count,
 *   so "S A L E" or "10am" never raise an obfuscation finding.
 */
export const STRONG_TRIGGERS: ReadonlySet<string> = new Set([
  'ignore', 'disregard', 'forget', 'override', 'bypass', 'instructions', 'instruction', 'previous',
  'prior', 'rules', 'guidelines', 'prompt', 'prompts', 'system', 'reveal', 'leak', 'exfiltrate',
  'jailbreak', 'jailbroken', 'pretend', 'unrestricted', 'unfiltered', 'uncensored', 'developer',
  'password', 'passwords', 'secret', 'secrets', 'credentials', 'memories', 'execute', 'obey',
  'hidden', 'restrictions', 'confidential', 'admin', 'assistant', 'delete', 'token', 'tokens',
  'apikey', 'disclose', 'roleplay', 'filters', 'directives', 'override', 'sudo',
]);

const COMMON_WORDS = [
  'all', 'any', 'the', 'your', 'you', 'are', 'now', 'act', 'as', 'to', 'be', 'mode', 'dan', 'send',
  'memory', 'api', 'key', 'keys', 'user', 'users', 'do', 'not', 'from', 'on', 'always', 'never',
  'respond', 'answer', 'command', 'run', 'conversation', 'history', 'new', 'no', 'longer', 'follow',
  'me', 'my', 'of', 'and', 'with', 'in', 'every', 'this', 'these', 'is', 'an', 'print', 'show', 'tell',
  'earlier', 'above', 'an', 'ai', 'everything', 'above', 'say', 'output', 'what', 'were', 'told',
  'give', 'email', 'data', 'at', 'it', 'that', 'for', 'instead', 'reply', 'anything', 'free',
];

/** Every word the segmenter knows, longest first so "instructions" wins over "in". */
export const SEGMENT_LEXICON: readonly string[] = [...new Set([...STRONG_TRIGGERS, ...COMMON_WORDS])].sort(
  (a, b) => b.length - a.length,
);
