import { buildMatchingCopy } from './matching-copy';
import { MAX_SIGNAL_SAMPLES, type ObfuscationSignals } from './obfuscation-signals';
import { scriptOf } from './script-of';
import { collapseSpacedLetters } from './spaced-letters';
import {
  BIDI_CONTROLS,
  HOMOGLYPHS_TO_LATIN,
  INVISIBLE_CHARS,
  LATIN_TO_CYRILLIC,
  SPLITTING_INVISIBLES,
  TAG_CHARS,
  VARIATION_SELECTORS,
} from './unicode-tables';

/**
 * Normalisation against obfuscation. Produces:
 * - `normalized`: invisibles and bidi controls removed, hidden tag text decoded, NFKC,
 *   lower case, spaced-out letters collapsed, whitespace collapsed (single newlines kept so
 *   line-start rules work), and look-alike letters fixed inside words that mix scripts. This
 *   is safe to show and is what excerpts are cut from.
 * - `aggressive`: a matching copy, index-aligned with `normalized`, that also reads leetspeak,
 *   small capitals, whole words of Cyrillic/Greek look-alikes in otherwise Latin text, and
 *   punctuation used as word glue (ignore_all_previous). It can mangle genuine text (a Russian
 *   word in an English sentence), which is why it is never shown and only used to match.
 * - `signals`: what obfuscation was seen, for the obfuscation findings.
 */
export interface NormalizedText {
  normalized: string;
  /** Null when identical to `normalized`. */
  aggressive: string | null;
  /** NFKC text before lowercasing; base64 is case-sensitive. */
  cased: string;
  signals: ObfuscationSignals;
}

const TAG_SEQUENCE = /(\u{1F3F4})?([\u{E0000}-\u{E007F}]+)/gu;
const SELECTOR_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}/gu;
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/gu;
const BENIGN_CONTROLS = /[\t\n\r\u200C\u200D]/;
const LOOKALIKE_NEIGHBOURS = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS_ON_ASCII = /([\x00-\x7f])\p{Mn}+/gu;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

export function normalizeText(content: string): NormalizedText {
  const signals: ObfuscationSignals = {
    zeroWidthWords: [],
    bidiControls: 0,
    suspiciousBidi: false,
    tagText: null,
    longestSelectorRun: 0,
    controlChars: 0,
    mixedScriptWords: [],
    spacedTriggerRuns: [],
    leetTriggerWords: [],
    lookalikeTriggerWords: [],
    expandedBeyond: false,
  };

  let text = content;
  if (NON_ASCII.test(text) || /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) {
    signals.controlChars = countControls(text);
    text = decodeTags(text, signals);
    signals.longestSelectorRun = longestSelectorRun(text);
    text = text.replace(VARIATION_SELECTORS, '');
    signals.zeroWidthWords = findSplitWords(text);
    text = text.replace(INVISIBLE_CHARS, '');
    detectBidi(text, signals);
    text = text.replace(BIDI_CONTROLS, '');
    text = boundExpansion(text.normalize('NFKC'), content.length, signals);
    // Combining marks hung on ASCII letters ("s̲y̲s̲t̲e̲m̲", Zalgo text) are decoration, not accents:
    // NFKC has already composed every real accented Latin letter.
    text = text.replace(MARKS_ON_ASCII, '$1');
  }
  const cased = text;
  text = boundExpansion(text.toLowerCase(), content.length, signals);

  const spaced = collapseSpacedLetters(text);
  text = spaced.text;
  signals.spacedTriggerRuns = spaced.triggerRuns;

  // Runs of horizontal space become one space; any run containing a line break becomes one
  // newline. Two linear passes: a single /\s*\n\s*/ can backtrack quadratically on long blanks.
  text = text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[ \n]*/g, '\n')
    .trim();

  let latinLetters = 0;
  let lookalikeScriptLetters = 0;
  if (NON_ASCII.test(text)) {
    // Repetitive inputs repeat words; the cache keeps 100k characters of them linear and cheap.
    const fixedWords = new Map<string, string>();
    text = text.replace(WORD, (word) => {
      if (!NON_ASCII.test(word)) {
        latinLetters += word.length;
        return word;
      }
      const counts = countScripts(word);
      latinLetters += counts.latin;
      lookalikeScriptLetters += counts.cyrillic + counts.greek;
      if (counts.latin === 0 || counts.cyrillic + counts.greek === 0) return word;
      let fixed = fixedWords.get(word);
      if (fixed === undefined) {
        // Towards Latin when every Cyrillic/Greek letter has a Latin twin ("ѕтοrе"); towards Cyrillic
        // when the word has Cyrillic letters Latin cannot imitate ("прeдыдущие" with a Latin e);
        // otherwise ("10kΩ", "200μs") it is a unit or a name and stays as written.
        fixed = allHaveLatinTwins(word) ? fixMixedWord(word, true) : counts.cyrillic > 0 ? fixMixedWord(word, false) : word;
        fixedWords.set(word, fixed);
      }
      // Only a word that changed was disguised: "200μs" mixes scripts but has no look-alike.
      if (fixed !== word && signals.mixedScriptWords.length < MAX_SIGNAL_SAMPLES) signals.mixedScriptWords.push(fixed);
      return fixed;
    });
  } else {
    latinLetters = text.length;
  }

  text = compact(text);
  const aggressive = buildMatchingCopy(text, latinLetters > lookalikeScriptLetters, signals);
  return { normalized: text, aggressive: aggressive === null ? null : compact(aggressive), cased, signals };
}

/**
 * How long the normalised text may grow past the input: NFKC expands some characters many times
 * (U+FDFA to 18 characters, U+3316 to 6) and lower-casing a few twice (U+0130). Ordinary text grows
 * by a few characters at most; past this bound the text is cut here and refused
 * (`obfuscation:expanding-characters`), so no later step works on text far above the input size.
 */
export function maxNormalizedLength(inputLength: number): number {
  return inputLength + Math.max(1024, Math.ceil(inputLength / 2));
}

function boundExpansion(text: string, inputLength: number, signals: ObfuscationSignals): string {
  const limit = maxNormalizedLength(inputLength);
  if (text.length <= limit) return text;
  signals.expandedBeyond = true;
  return text.slice(0, isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit);
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * Strings built by replace callbacks from a two-byte input stay two-byte in V8 even when every
 * character fits in Latin-1, and the regex engine runs several times slower on them
 * (`npm run bench:sanitizer` shows it on the pathological inputs). Re-encoding is one cheap copy.
 */
function compact(text: string): string {
  return text.length > 200 && !/[^\x00-\xff]/.test(text) ? Buffer.from(text, 'latin1').toString('latin1') : text;
}

/** Tag characters are left out: they have their own finding, and flag emoji are made of them. */
function countControls(text: string): number {
  let count = 0;
  for (const match of text.matchAll(CONTROL_OR_FORMAT)) if (!BENIGN_CONTROLS.test(match[0]) && !TAG_CHARS.test(match[0])) count++;
  return count;
}

/**
 * Tag characters spell ASCII invisibly (U+E0041 is a hidden "A"). The one legitimate use is
 * a subdivision flag, which follows U+1F3F4 (waving black flag); those are left alone.
 */
function decodeTags(text: string, signals: ObfuscationSignals): string {
  if (!TAG_CHARS.test(text)) return text;
  const decoded: string[] = [];
  const out = text.replace(TAG_SEQUENCE, (_whole, flag: string | undefined, tags: string) => {
    if (flag) return flag;
    let ascii = '';
    for (const ch of tags) {
      const code = (ch.codePointAt(0) ?? 0) - 0xe0000;
      if (code >= 0x20 && code < 0x7f) ascii += String.fromCharCode(code);
    }
    if (!ascii.trim()) return '';
    decoded.push(ascii);
    return ` ${ascii} `;
  });
  if (decoded.length > 0) signals.tagText = decoded.join(' ');
  return out;
}

function longestSelectorRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(SELECTOR_RUN)) longest = Math.max(longest, [...match[0]].length);
  return longest;
}

/** Words split by an invisible character, read as they will be once it is removed. */
function findSplitWords(text: string): string[] {
  const words: string[] = [];
  const splitter = new RegExp(SPLITTING_INVISIBLES.source, 'gu');
  let match: RegExpExecArray | null;
  while ((match = splitter.exec(text)) !== null && words.length < 5) {
    const at = match.index;
    const before = text[at - 1] ?? '';
    let after = at + 1;
    while (after < text.length && SPLITTING_INVISIBLES.test(text[after])) after++;
    if (!LOOKALIKE_NEIGHBOURS.test(before) || !LOOKALIKE_NEIGHBOURS.test(text[after] ?? '')) {
      // The rest of this run has an invisible character before it, so it cannot split a word
      // either: skip it rather than re-read it from every position (quadratic on long runs).
      splitter.lastIndex = after;
      continue;
    }
    let start = at;
    while (start > 0 && /[\p{L}\p{M}\p{N}]/u.test(text[start - 1]) && at - start < 40) start--;
    let end = after;
    while (end < text.length && /[\p{L}\p{M}\p{N}\u200B-\u200F\u2060-\u2064\uFEFF]/u.test(text[end]) && end - after < 40) end++;
    words.push(text.slice(start, end).replace(INVISIBLE_CHARS, '').toLowerCase());
    splitter.lastIndex = end;
  }
  return words;
}

/**
 * Overrides (U+202D/U+202E) have no business in stored memories. Embeddings and isolates
 * appear in right-to-left text pasted from some editors, so they only count as suspicious
 * when the text has no right-to-left letters at all.
 */
function detectBidi(text: string, signals: ObfuscationSignals): void {
  const controls = text.match(BIDI_CONTROLS);
  if (!controls) return;
  signals.bidiControls = controls.length;
  signals.suspiciousBidi = /[\u202D\u202E]/.test(text) || !RTL_LETTER.test(text);
}

function countScripts(word: string): { latin: number; cyrillic: number; greek: number } {
  const counts = { latin: 0, cyrillic: 0, greek: 0 };
  for (let i = 0; i < word.length; i++) {
    const script = scriptOf(word.charCodeAt(i));
    if (script === 'latin' || script === 'cyrillic' || script === 'greek') counts[script]++;
  }
  return counts;
}

function allHaveLatinTwins(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const script = scriptOf(word.charCodeAt(i));
    if ((script === 'cyrillic' || script === 'greek') && HOMOGLYPHS_TO_LATIN[word[i]] === undefined) return false;
  }
  return true;
}

/** A word mixing Latin with Cyrillic/Greek: map the look-alikes to one script. */
function fixMixedWord(word: string, towardsLatin: boolean): string {
  let out = '';
  for (const ch of word) {
    if (towardsLatin) out += HOMOGLYPHS_TO_LATIN[ch] ?? ch;
    else out += scriptOf(ch.charCodeAt(0)) === 'latin' ? (LATIN_TO_CYRILLIC[ch] ?? ch) : ch;
  }
  return out;
}
