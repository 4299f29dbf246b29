/**
 * Building blocks for rule patterns. Every pattern is written so the engine cannot backtrack
 * catastrophically: gaps are bounded (`{0,n}`), repeated groups alternate between disjoint
 * classes (letters then spaces), and no pattern holds two unbounded-ish gaps in a row. The
 * 100k-character inputs of test/lessons/sanitizer-pathological.spec.ts (termination) and bench/sanitizer.ts (timings) hold every rule to that.
 */

/** Word boundaries that understand accented and non-Latin letters (`\b` is ASCII-only). */
export const L = String.raw`(?<![\p{L}\p{N}])`;
export const R = String.raw`(?![\p{L}\p{N}])`;

/** Up to `n` arbitrary words, each followed by spaces (letters and spaces are disjoint classes). */
export const words = (n: number): string => String.raw`(?:[\p{L}\p{N}'’-]+[ ,]+){0,${n}}`;

/** Up to `n` characters within one sentence. */
export const gap = (n: number): string => String.raw`[^.!?\n]{0,${n}}`;

/** Up to `n` characters within one line (sentences may end, as in "IMPORTANT. Ignore ..."). */
export const lineGap = (n: number): string => String.raw`[^\n]{0,${n}}`;

/** One pattern from source; `u` for \p{...}, `g` so the matcher can walk every occurrence. */
export const rx = (source: string): RegExp => new RegExp(source, 'gu');

/** An alternation group from a list. */
export const any = (...alternatives: string[]): string => `(?:${alternatives.join('|')})`;

/** "your", including text-speak ("ur", "yr"). */
export const YOUR = String.raw`(?:your|ur|yr)`;

/** Words that address the model (used as context by several rules). */
export const AI_WORDS = String.raw`(?:you|you're|youre|your|yourself|assistant|ai|a\.i\.|llm|model|chatbot|chatgpt|gpt|claude|gemini|copilot|bot)`;

/** Nouns for the rules an AI was given. */
export const INSTRUCTION_NOUNS = String.raw`(?:instructions?|prompts?|rules?|guidelines|guidance|directives?|commands|guardrails|constraints|polic(?:y|ies)|programming|restrictions|safeguards|system (?:prompt|message)|orders|directions|context|conditioning)`;

/** External destinations: a URL, a bare domain or an e-mail address. */
export const EXTERNAL_DESTINATION = String.raw`(?:https?://|www\.|[\w.+-]+@[\w-]+\.[a-z]{2,}|[a-z0-9-]+\.(?:com|net|org|io|xyz|ru|cn|biz|info|top|site|online|app|dev|me|co|cc|tk|click|link|shop)(?![\p{L}\p{N}]))`;
