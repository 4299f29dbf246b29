import { excerptAround, excerptOf } from './excerpt';
import type { NormalizedText } from './normalize-text';
import type { SanitizerFinding, SanitizerRuleInfo } from './sanitizer.types';

/**
 * Anomalies: shapes of text that are unusual for a memory but prove nothing. Always `warn`,
 * never `block`, and tuned so ordinary text in any language (a paragraph of Russian, Japanese
 * mixing kanji, kana and a Latin brand name, Arabic with an English term) raises nothing.
 */
export const ANOMALY_RULES: readonly SanitizerRuleInfo[] = [
  {
    id: 'anomaly:excessive-length',
    category: 'anomaly',
    severity: 'warn',
    description: `Content longer than ${20_000} characters (payloads hide in bulk).`,
  },
  {
    id: 'anomaly:repetition',
    category: 'anomaly',
    severity: 'warn',
    description:
      'Heavy repetition: one token or line repeated many times, a long run of one character, or very few distinct tokens in a long text.',
  },
  {
    id: 'anomaly:script-mixing',
    category: 'anomaly',
    severity: 'warn',
    description: 'Many words mixing alphabets (e.g. Latin, Cyrillic, Greek, Arabic in one word); CJK with Latin is normal and ignored.',
  },
  {
    id: 'anomaly:control-characters',
    category: 'anomaly',
    severity: 'warn',
    description: 'Many control or format characters, or long runs of variation selectors (a known smuggling channel).',
  },
  {
    id: 'anomaly:symbol-heavy',
    category: 'anomaly',
    severity: 'warn',
    description: 'Most of a long text is punctuation and symbols (emoji excluded).',
  },
];

export const MAX_ORDINARY_LENGTH = 20_000;

const finding = (id: string, excerpt: string): SanitizerFinding => ({ ruleId: id, category: 'anomaly', severity: 'warn', excerpt });

export function anomalyFindings(content: string, text: NormalizedText): SanitizerFinding[] {
  const { normalized, signals } = text;
  const findings: SanitizerFinding[] = [];
  if (content.length > MAX_ORDINARY_LENGTH) findings.push(finding('anomaly:excessive-length', excerptOf(normalized, '')));
  const repeated = findRepetition(normalized);
  if (repeated !== null) findings.push(finding('anomaly:repetition', repeated));
  const mixed = findScriptMixing(normalized);
  if (mixed !== null) findings.push(finding('anomaly:script-mixing', excerptOf(normalized, mixed)));
  const controls = signals.controlChars;
  if (controls >= 12 || (controls >= 4 && controls > content.length / 100) || signals.longestSelectorRun >= 8) {
    findings.push(finding('anomaly:control-characters', excerptOf(normalized, '')));
  }
  if (isSymbolHeavy(normalized)) findings.push(finding('anomaly:symbol-heavy', excerptOf(normalized, '')));
  return findings;
}

const SAME_CHAR_RUN = /([^\s\-=_*#~.])\1{63,}/u;
const MAX_TOKENS = 50_000;

/** Returns an excerpt of the repeated material, or null. */
function findRepetition(normalized: string): string | null {
  const run = SAME_CHAR_RUN.exec(normalized);
  if (run) return excerptAround(normalized, run.index, run.index + run[0].length);

  const tokens = normalized.split(/\s+/, MAX_TOKENS).filter((token) => token.length > 0);
  if (tokens.length >= 40) {
    const counts = new Map<string, number>();
    let top = '';
    let topCount = 0;
    for (const token of tokens) {
      const next = (counts.get(token) ?? 0) + 1;
      counts.set(token, next);
      if (next > topCount) {
        top = token;
        topCount = next;
      }
    }
    // Natural text: the commonest word ("the", "de", "и") stays well under a quarter of tokens,
    // and the distinct ratio of a few thousand tokens stays above ~0.2 (Heaps' law).
    const share = topCount / tokens.length;
    const distinctRatio = counts.size / tokens.length;
    if ((share > 0.3 && topCount >= 20) || (tokens.length <= 5000 && distinctRatio < 0.15)) return excerptOf(normalized, top);
  }

  const lines = normalized
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= 8);
  if (lines.length >= 5) {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const [line, count] of counts) if (count >= 5 && count / lines.length >= 0.3) return excerptOf(normalized, line);
  }
  return null;
}

/** Alphabets as bits, so a word's set of alphabets is one integer. */
const LATIN = 1;
const GREEK = 2;
const CYRILLIC = 4;
const ARMENIAN = 8;
const HEBREW = 16;
const ARABIC = 32;
const INDIC = 64;
const THAI = 128;
const GEORGIAN = 256;

/** Alphabet bit of a code unit; 0 for CJK, Hangul, digits, marks and non-letters, which never count. */
function alphabetOf(code: number): number {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) ? LATIN : 0;
  if (code <= 0x24f) return code >= 0xc0 && code !== 0xd7 && code !== 0xf7 ? LATIN : 0;
  if (code <= 0x2af) return LATIN;
  if (code < 0x370) return 0; // modifier letters, combining marks
  if (code <= 0x3ff) return GREEK;
  if (code <= 0x52f) return CYRILLIC;
  if (code <= 0x58f) return ARMENIAN;
  if (code <= 0x5ff) return HEBREW;
  if (code <= 0x6ff || (code >= 0x750 && code <= 0x77f) || (code >= 0x8a0 && code <= 0x8ff)) return ARABIC;
  if (code >= 0x900 && code <= 0xdff) return INDIC;
  if (code >= 0xe00 && code <= 0xe7f) return THAI;
  if (code >= 0x10a0 && code <= 0x10ff) return GEORGIAN;
  if (code >= 0x1d00 && code <= 0x1eff) return LATIN;
  if (code >= 0x1f00 && code <= 0x1fff) return GREEK;
  if (code >= 0xfb50 && code <= 0xfdff) return ARABIC;
  if (code >= 0xfe70 && code <= 0xfeff) return ARABIC;
  return 0;
}

function bitCount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

const WORDS = /[\p{L}\p{M}]{2,}/gu;

/** The first mixed word when mixing is heavy, else null. */
function findScriptMixing(normalized: string): string | null {
  if (!/[^\x00-\x7f]/.test(normalized)) return null;
  let words = 0;
  let mixedWords = 0;
  let first: string | null = null;
  const alphabetsOf = new Map<string, number>();
  for (const match of normalized.matchAll(WORDS)) {
    words++;
    const word = match[0];
    let alphabets = alphabetsOf.get(word);
    if (alphabets === undefined) {
      let seen = 0;
      for (let i = 0; i < word.length; i++) seen |= alphabetOf(word.charCodeAt(i));
      alphabets = bitCount(seen);
      alphabetsOf.set(word, alphabets);
    }
    if (alphabets >= 3) return word;
    if (alphabets === 2) {
      mixedWords++;
      first ??= word;
    }
  }
  return mixedWords >= 5 && mixedWords / words >= 0.1 ? first : null;
}

const NOT_SYMBOL = /[^\p{P}\p{S}]+/gu;
const EMOJI = /\p{Extended_Pictographic}/gu;

function isSymbolHeavy(normalized: string): boolean {
  const visible = normalized.replace(/\s+/g, '');
  if (visible.length < 80) return false;
  // Counted by what is left after deleting everything else: no array of 100k matches.
  const symbols = visible.replace(NOT_SYMBOL, '').replace(EMOJI, '').length;
  return symbols / visible.length > 0.6;
}
