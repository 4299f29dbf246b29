import { segment } from './spaced-letters';
import { SEGMENT_LEXICON, STRONG_TRIGGERS } from './trigger-lexicon';

/**
 * A matching copy with word boundaries repaired:
 * - run-together words split apart: "ignorepreviousinstructions" (zero-width spaces used as
 *   separators, then removed), "IgnoreAllPreviousInstructions" (camel case, then lowercased);
 * - words broken by stray spaces rejoined: "ign ore prev ious instruc tions".
 * Unlike the aggressive copy it is not index-aligned, so it carries a map back to the
 * normalised text for excerpts.
 */
export interface SegmentedCopy {
  text: string;
  /** map[i] is the index in the normalised text of text[i]. */
  map: Int32Array;
}

const LONG_TOKEN = /[a-z0-9@$]{12,}/g;
const LEXICON = new Set(SEGMENT_LEXICON);
/** Share of a token that must be known words before it counts as glued. */
const MIN_COVERAGE = 0.7;
const MAX_TOKEN = 200;
/** Segmenting is the costly step; a token is only segmented if a trigger word occurs inside it. */
const HAS_TRIGGER = new RegExp([...STRONG_TRIGGERS].join('|'));
const MAX_SEGMENTED = 20;

export function repairWordBoundaries(normalized: string): SegmentedCopy | null {
  const split = splitGluedWords(normalized);
  const rejoined = rejoinBrokenWords(split?.text ?? normalized);
  if (rejoined === null) return split;
  if (split === null) return rejoined;
  // Compose the two maps: rejoined -> split -> normalised.
  return { text: rejoined.text, map: rejoined.map.map((i) => split.map[i]) };
}

function splitGluedWords(normalized: string): SegmentedCopy | null {
  LONG_TOKEN.lastIndex = 0;
  if (!LONG_TOKEN.test(normalized)) return null;
  LONG_TOKEN.lastIndex = 0;
  let out = '';
  const map: number[] = [];
  let copied = 0;
  let changed = false;
  let segmentedCount = 0;
  let match: RegExpExecArray | null;
  while ((match = LONG_TOKEN.exec(normalized)) !== null) {
    const token = match[0];
    if (token.length > MAX_TOKEN || !HAS_TRIGGER.test(token)) continue;
    if (++segmentedCount > MAX_SEGMENTED) break;
    const pieces = segment(token).split(' ');
    const known = pieces.filter((piece) => LEXICON.has(piece));
    const coverage = known.reduce((sum, piece) => sum + piece.length, 0) / token.length;
    if (known.length < 2 || coverage < MIN_COVERAGE || !known.some((piece) => STRONG_TRIGGERS.has(piece))) continue;
    for (let i = copied; i < match.index; i++) map.push(i);
    out += normalized.slice(copied, match.index);
    let at = match.index;
    pieces.forEach((piece, k) => {
      if (k > 0) {
        out += ' ';
        map.push(at);
      }
      out += piece;
      for (let i = 0; i < piece.length; i++) map.push(at + i);
      at += piece.length;
    });
    copied = match.index + token.length;
    changed = true;
  }
  if (!changed) return null;
  for (let i = copied; i < normalized.length; i++) map.push(i);
  out += normalized.slice(copied);
  return { text: out, map: Int32Array.from(map) };
}

/** Only fragments of these are rejoined: long enough that a false join is unlikely. */
const REJOIN_TARGETS = new Set([...STRONG_TRIGGERS].filter((word) => word.length >= 5));
/** First two letters of every target, as char-code pairs: a cheap first test for each word. */
const TARGET_STARTS = new Set([...REJOIN_TARGETS].map((word) => word.charCodeAt(0) * 65536 + word.charCodeAt(1)));
/** Every proper prefix of a target: a fragment that is not one cannot start a broken word. */
const TARGET_PREFIXES = new Set(
  [...REJOIN_TARGETS].flatMap((word) => Array.from({ length: word.length - 1 }, (_, i) => word.slice(0, i + 1))),
);

/**
 * "ign ore prev ious": two or three adjacent fragments that together spell a trigger word, where
 * the first fragment is not a word of its own. Returns null when nothing was rejoined.
 */
function rejoinBrokenWords(text: string): SegmentedCopy | null {
  const words: { start: number; end: number }[] = [];
  let followers = 0;
  for (let i = 0; i < text.length;) {
    if (!isAsciiLower(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isAsciiLower(text.charCodeAt(i))) i++;
    // Keep a word that could start a broken trigger word, and up to two words right after it.
    if (TARGET_STARTS.has(text.charCodeAt(start) * 65536 + text.charCodeAt(start + 1))) {
      words.push({ start, end: i });
      followers = 2;
    } else if (followers > 0 && words.length > 0 && words[words.length - 1].end === start - 1) {
      words.push({ start, end: i });
      followers--;
    } else {
      followers = 0;
    }
  }
  const joins: { from: number; to: number }[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    if (words[i].end - words[i].start > 9) continue;
    const first = text.slice(words[i].start, words[i].end);
    if (!TARGET_PREFIXES.has(first) || LEXICON.has(first)) continue;
    let joined = first;
    for (let span = 2; span <= 3 && i + span <= words.length; span++) {
      const previous = words[i + span - 2];
      const next = words[i + span - 1];
      // Fragments must be separated by exactly one space.
      if (next.start !== previous.end + 1 || text.charCodeAt(previous.end) !== 0x20) break;
      joined += text.slice(next.start, next.end);
      if (REJOIN_TARGETS.has(joined)) {
        joins.push({ from: words[i].start, to: next.end });
        i += span - 1;
        break;
      }
      if (!TARGET_PREFIXES.has(joined)) break;
    }
  }
  if (joins.length === 0) return null;
  let out = '';
  const map: number[] = [];
  let copied = 0;
  for (const { from, to } of joins) {
    for (let i = copied; i < from; i++) map.push(i);
    out += text.slice(copied, from);
    for (let i = from; i < to; i++) {
      if (text[i] === ' ') continue;
      out += text[i];
      map.push(i);
    }
    copied = to;
  }
  for (let i = copied; i < text.length; i++) map.push(i);
  out += text.slice(copied);
  return { text: out, map: Int32Array.from(map) };
}

function isAsciiLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
