import { scriptOf } from './script-of';
import { SEGMENT_LEXICON, STRONG_TRIGGERS } from './trigger-lexicon';
import { LEET_TO_LATIN } from './unicode-tables';

/**
 * Collapses letters spelled out one at a time ("i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e").
 *
 * A hand-written scanner rather than a regex: the input can be 100k characters of
 * "a a a a ..." and a scanner is linear by construction.
 *
 * A run is at least MIN_UNITS single characters with at least MIN_LETTERS letters, each unit
 * standing alone (no letter on either side) and separated by the same short separator. A longer
 * or different separator between two units ("i g n o r e   a l l", "a.l.l. p.r.i.o.r") is a word
 * break. A run with no breaks is segmented with the trigger lexicon.
 */

const MIN_UNITS = 4;
const MIN_LETTERS = 3;
const MAX_SEPARATOR = 4;
/** Longer runs are anomalies in their own right; segmenting them is not worth the time. */
const MAX_SEGMENTED_RUN = 400;

const SEPARATOR_CHARS = new Set([' ', '\t', '.', '-', '_', '*', '·', '•', '|', '+', '~', '/']);
const SEPARATOR_CODES = new Set([...SEPARATOR_CHARS].map((ch) => ch.charCodeAt(0)));
const WORD_CHAR_RE = /^[\p{L}\p{N}\p{M}]$/u;
const LETTER = /^\p{L}$/u;

/** A letter of a script written with spaces between words, a digit, or @/$ (leetspeak). CJK never. */
function isUnit(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80)
    return (
      (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x40 || code === 0x24
    );
  const script = scriptOf(code);
  return script === 'latin' || script === 'cyrillic' || script === 'greek';
}

function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
  return WORD_CHAR_RE.test(ch);
}

export interface SpacedCollapse {
  text: string;
  /** The collapsed runs that spelled at least one strong trigger word. */
  triggerRuns: string[];
}

export function collapseSpacedLetters(text: string): SpacedCollapse {
  const out: string[] = [];
  const triggerRuns: string[] = [];
  let i = 0;
  let copiedUpTo = 0;
  const n = text.length;
  while (i < n) {
    // Cheap pre-check: a run needs a unit followed directly by a separator.
    if (!SEPARATOR_CODES.has(text.charCodeAt(i + 1)) || !isRunStart(text, i)) {
      i++;
      continue;
    }
    const run = readRun(text, i);
    if (run === null) {
      i++;
      continue;
    }
    out.push(text.slice(copiedUpTo, i));
    const collapsed = joinRun(run.units, run.breaks);
    out.push(collapsed);
    if (triggerRuns.length < 5 && collapsed.split(' ').some((word) => STRONG_TRIGGERS.has(deLeet(word)))) triggerRuns.push(collapsed);
    i = run.end;
    copiedUpTo = i;
  }
  if (copiedUpTo === 0) return { text, triggerRuns };
  out.push(text.slice(copiedUpTo));
  return { text: out.join(''), triggerRuns };
}

function isRunStart(text: string, i: number): boolean {
  if (!isUnit(text[i])) return false;
  return i === 0 || !isWordChar(text[i - 1]);
}

interface Run {
  units: string[];
  /** breaks[k] is true when a word break sits before units[k]. */
  breaks: boolean[];
  end: number;
}

function readRun(text: string, start: number): Run | null {
  // Phase 1: every single-character unit reachable through short separators.
  const units = [text[start]];
  const separators: string[] = [''];
  let j = start + 1;
  const ends = [j];
  for (;;) {
    let k = j;
    while (k < text.length && k - j < MAX_SEPARATOR && SEPARATOR_CHARS.has(text[k])) k++;
    if (k === j || k >= text.length) break;
    const unit = text[k];
    if (!isUnit(unit)) break;
    if (k + 1 < text.length && isWordChar(text[k + 1])) break;
    units.push(unit);
    separators.push(text.slice(j, k));
    j = k + 1;
    ends.push(j);
  }
  if (units.length < MIN_UNITS) return null;

  // Phase 2: the most common separator joins letters; a longer one made of the same thing
  // breaks words; anything else ends the run.
  const base = mostCommon(separators.slice(1));
  const breaks = [false];
  let count = 1;
  for (let k = 1; k < units.length; k++) {
    const separator = separators[k];
    if (separator === base) breaks.push(false);
    else if (separator.length > base.length && (separator.includes(base) || separator.trim() === '')) breaks.push(true);
    // "a.l.l p.r.i.o.r": a plain space between dotted or hyphenated letters is a word break too.
    else if (separator.trim() === '' && base.trim() !== '') breaks.push(true);
    else break;
    count++;
  }
  const kept = units.slice(0, count);
  if (kept.length < MIN_UNITS) return null;
  if (kept.filter((u) => LETTER.test(u)).length < MIN_LETTERS) return null;
  return { units: kept, breaks, end: ends[count - 1] };
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  let best = values[0];
  for (const value of values) {
    const next = (counts.get(value) ?? 0) + 1;
    counts.set(value, next);
    if (next > (counts.get(best) ?? 0)) best = value;
  }
  return best;
}

function joinRun(units: string[], breaks: boolean[]): string {
  let joined = '';
  for (let k = 0; k < units.length; k++) joined += (breaks[k] ? ' ' : '') + units[k];
  const words = joined.split(' ');
  return words.map((word) => (word.length >= 8 && word.length <= MAX_SEGMENTED_RUN ? segment(word) : word)).join(' ');
}

/** Lexicon words by first letter (longest first), so segmentation tries a handful, not all. */
const LEXICON_BY_FIRST = new Map<string, string[]>();
for (const word of SEGMENT_LEXICON) {
  const bucket = LEXICON_BY_FIRST.get(word[0]) ?? [];
  bucket.push(word);
  LEXICON_BY_FIRST.set(word[0], bucket);
}
const NO_WORDS: string[] = [];

/**
 * Greedy longest-match segmentation against the lexicon, comparing through the leetspeak map so
 * "1gn0r3" still finds "ignore". Unknown letters stay glued to their neighbours.
 */
export function segment(word: string): string {
  const plain = deLeet(word);
  const plainL = plain.replace(/i/g, 'l');
  const pieces: string[] = [];
  let pending = '';
  let i = 0;
  while (i < word.length) {
    let matched = 0;
    const candidates =
      word[i] === '1'
        ? [...(LEXICON_BY_FIRST.get('i') ?? NO_WORDS), ...(LEXICON_BY_FIRST.get('l') ?? NO_WORDS)]
        : (LEXICON_BY_FIRST.get(plain[i]) ?? NO_WORDS);
    for (const candidate of candidates) {
      if (candidate.length > word.length - i) continue;
      if (matchesAt(plain, plainL, word, i, candidate)) {
        matched = Math.max(matched, candidate.length);
        if (word[i] !== '1') break;
      }
    }
    if (matched === 0) {
      pending += word[i];
      i++;
      continue;
    }
    if (pending) pieces.push(pending);
    pending = '';
    pieces.push(word.slice(i, i + matched));
    i += matched;
  }
  if (pending) pieces.push(pending);
  return pieces.join(' ');
}

function matchesAt(plain: string, plainL: string, word: string, at: number, candidate: string): boolean {
  for (let c = 0; c < candidate.length; c++) {
    const want = candidate[c];
    const p = plain[at + c];
    if (p === want) continue;
    // '1' reads as i or l; the plain copy chose i, the L copy l.
    if (word[at + c] === '1' && plainL[at + c] === want) continue;
    return false;
  }
  return true;
}

function deLeet(word: string): string {
  let out = '';
  for (const ch of word) out += LEET_TO_LATIN[ch] ?? ch;
  return out;
}
