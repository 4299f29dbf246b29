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
    // Every unit of the chain is a possible run start; the chain is read once for all of them.
    const chain = readChain(text, i);
    for (const run of runsOf(chain)) {
      out.push(text.slice(copiedUpTo, run.start));
      const collapsed = joinRun(run.units, run.breaks);
      out.push(collapsed);
      if (triggerRuns.length < 5 && collapsed.split(' ').some((word) => STRONG_TRIGGERS.has(deLeet(word)))) triggerRuns.push(collapsed);
      copiedUpTo = run.end;
    }
    i = chain.ends[chain.units.length - 1];
  }
  if (copiedUpTo === 0) return { text, triggerRuns };
  out.push(text.slice(copiedUpTo));
  return { text: out.join(''), triggerRuns };
}

function isRunStart(text: string, i: number): boolean {
  if (!isUnit(text[i])) return false;
  return i === 0 || !isWordChar(text[i - 1]);
}

/**
 * Every single-character unit reachable through short separators from a run start. Reading it
 * from any later unit of the chain gives the same units and separators from there on (the
 * reading never looks back), which is what lets runsOf judge every start from one reading.
 */
interface Chain {
  units: string[];
  /** separators[k] stands before units[k]; separators[0] is empty. */
  separators: string[];
  /** starts[k] is the index of units[k] in the text, ends[k] the index after it. */
  starts: number[];
  ends: number[];
}

function readChain(text: string, start: number): Chain {
  const chain: Chain = { units: [text[start]], separators: [''], starts: [start], ends: [start + 1] };
  let j = start + 1;
  for (;;) {
    let k = j;
    while (k < text.length && k - j < MAX_SEPARATOR && SEPARATOR_CHARS.has(text[k])) k++;
    if (k === j || k >= text.length) break;
    const unit = text[k];
    if (!isUnit(unit)) break;
    if (k + 1 < text.length && isWordChar(text[k + 1])) break;
    chain.units.push(unit);
    chain.separators.push(text.slice(j, k));
    chain.starts.push(k);
    chain.ends.push(k + 1);
    j = k + 1;
  }
  return chain;
}

interface Run {
  units: string[];
  /** breaks[k] is true when a word break sits before units[k]. */
  breaks: boolean[];
  start: number;
  end: number;
}

/**
 * The runs of a chain, in order: from each unit that is not inside an earlier run, the run that
 * starts there, if any. The run from unit k is decided on the separators after it: the most
 * common one (ties go to the one that reached the top count first, reading forwards) joins
 * letters, a longer one made of the same thing breaks words, anything else ends the run; it
 * needs MIN_UNITS units with MIN_LETTERS letters.
 *
 * Judging every start by re-reading the rest of the chain is quadratic (a 20,000-character
 * "1 1 1 ..." took 16 s). Here it is linear: the most common separator of every suffix comes
 * from one backward pass, letters are counted with prefix sums, and where a run from k ends is
 * remembered per separator, so the separators scanned for one candidate never need scanning
 * again for the same one.
 */
function* runsOf(chain: Chain): Generator<Run> {
  const { units, separators } = chain;
  const m = units.length;
  if (m < MIN_UNITS) return;
  const base = suffixBases(separators);
  const letters = new Int32Array(m + 1);
  for (let k = 0; k < m; k++) letters[k + 1] = letters[k] + (LETTER.test(units[k]) ? 1 : 0);
  /** Per candidate separator: the first separator index, at or after the last scan's start, that ends a run. */
  const runEnds = new Map<string, number>();
  let k = 0;
  while (k <= m - MIN_UNITS) {
    const joiner = base[k + 1];
    let end = runEnds.get(joiner) ?? -1;
    if (end <= k) {
      end = k + 1;
      while (end < m && continuesRun(separators[end], joiner)) end++;
      runEnds.set(joiner, end);
    }
    if (end - k < MIN_UNITS || letters[end] - letters[k] < MIN_LETTERS) {
      k++;
      continue;
    }
    const breaks = [false];
    for (let j = k + 1; j < end; j++) breaks.push(separators[j] !== joiner);
    yield { units: units.slice(k, end), breaks, start: chain.starts[k], end: chain.ends[end - 1] };
    k = end;
  }
}

/** Whether a separator keeps a run going whose letters are joined by `joiner` (a break when it is not `joiner` itself). */
function continuesRun(separator: string, joiner: string): boolean {
  if (separator === joiner) return true;
  if (separator.length > joiner.length && (separator.includes(joiner) || separator.trim() === '')) return true;
  // "a.l.l p.r.i.o.r": a plain space between dotted or hyphenated letters is a word break too.
  return separator.trim() === '' && joiner.trim() !== '';
}

/**
 * base[k] is the most common of separators[k..]: the one with the highest count, and of those
 * the one that reached it first reading forwards, which is the one whose last occurrence comes
 * first. Built backwards, one separator at a time.
 */
function suffixBases(separators: string[]): string[] {
  const m = separators.length;
  const base = new Array<string>(m + 1).fill('');
  const counts = new Map<string, number>();
  const lastAt = new Map<string, number>();
  let best = '';
  let bestCount = 0;
  for (let k = m - 1; k >= 1; k--) {
    const value = separators[k];
    if (!lastAt.has(value)) lastAt.set(value, k);
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count > bestCount || (count === bestCount && (lastAt.get(value) ?? m) < (lastAt.get(best) ?? m))) {
      best = value;
      bestCount = count;
    }
    base[k] = best;
  }
  return base;
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
