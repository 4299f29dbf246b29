/**
 * Tokenisation shared by the lexical (hash) and semantic (GloVe) embedding parts, so that both
 * see the same words for the same text.
 */

// A word is letters/marks/digits, optionally joined by inner apostrophes or hyphens
// ("user's", "seven-year-old"). Numbers keep inner separators ("7:40", "3.5", "1,000") because
// times, versions and amounts are exactly what the lexical part has to match.
const TOKEN_PATTERN = /\p{N}+(?:[.,:]\p{N}+)+|[\p{L}\p{M}\p{N}]+(?:['-][\p{L}\p{M}\p{N}]+)*/gu;
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/g;
const THOUSANDS = /^\p{N}{1,3}(?:,\p{N}{3})+$/u;

// Contractions are expanded so that "don't" and "do not" produce the same words. The stems of
// "n't" forms that are not plain words are spelled out.
const NOT_STEMS: Record<string, string> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is' };
const SUFFIXES: Record<string, string | null> = {
  "'re": 'are',
  "'ve": 'have',
  "'ll": 'will',
  "'d": 'would',
  "'m": 'am',
  // Possessive or "is": dropping it loses little and keeps "user's" equal to "user".
  "'s": null,
};

/** NFKC, lower case, typographic apostrophes folded to `'`. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'");
}

/**
 * Raw word tokens of already normalised text: punctuation removed, inner apostrophes and
 * hyphens kept. Callers decide whether a hyphenated word stays whole.
 */
export function rawTokens(normalised: string): string[] {
  return normalised.match(TOKEN_PATTERN) ?? [];
}

/** Expands contractions and drops other apostrophes: "don't" -> ["do", "not"]. */
export function expandApostrophes(token: string): string[] {
  const apostrophe = token.indexOf("'");
  if (apostrophe < 0) return [token];
  if (token.endsWith("n't") && token.length > 3) {
    const stem = token.slice(0, -3);
    return [NOT_STEMS[stem] ?? stem, 'not'];
  }
  for (const [suffix, replacement] of Object.entries(SUFFIXES)) {
    if (token.endsWith(suffix) && token.length > suffix.length) {
      const stem = token.slice(0, -suffix.length).replaceAll("'", '');
      return replacement === null ? [stem] : [stem, replacement];
    }
  }
  return [token.replaceAll("'", '')];
}

/** "1,000" -> "1000"; other numbers unchanged. */
function canonicalNumber(token: string): string {
  return THOUSANDS.test(token) ? token.replaceAll(',', '') : token;
}

/**
 * Words of a text: normalised, contractions expanded, numbers canonical, hyphenated words
 * still whole (the GloVe vocabulary knows some of them, e.g. "e-mail").
 */
export function textWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of rawTokens(normaliseText(text))) {
    for (const word of expandApostrophes(canonicalNumber(raw))) if (word) out.push(word);
  }
  return out;
}

/**
 * Words for the lexical part: hyphenated words split into their parts so "seven-year-old"
 * matches "seven year old".
 */
export function lexicalTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of textWords(text)) {
    if (!word.includes('-')) {
      out.push(word);
      continue;
    }
    for (const part of word.split('-')) if (part) out.push(part);
  }
  return out;
}
