import { MAX_SIGNAL_SAMPLES, type ObfuscationSignals } from './obfuscation-signals';
import { scriptOf } from './script-of';
import { SEGMENT_LEXICON, STRONG_TRIGGERS } from './trigger-lexicon';
import { HOMOGLYPHS_TO_LATIN, LATIN_LOOKALIKES, LEET_TO_LATIN } from './unicode-tables';

/*
 * The aggressive matching copy of the normalised text (see normalize-text.ts): leetspeak, small
 * capitals, whole words of Cyrillic/Greek look-alikes in mostly Latin text, and punctuation
 * used as word glue. Every mapping is one UTF-16 unit to one, so the copy stays index-aligned
 * with the normalised text and excerpts can be cut from the latter.
 */

/** Words, optionally glued into one token with _ * ~ ^ | / \\ + or -. */
const AGGRESSIVE_TARGETS = /[\p{L}\p{N}@$]+(?:[-_*~^|/\\+][\p{L}\p{N}@$]+)*/gu;
const GLUE = /[-_*~^|/\\+]/;
const GLUE_SPLIT = /[-_*~^|/\\+]/;
/** Cheap pre-check: leet next to a letter, glue between word characters, or a Latin look-alike. */
const MIGHT_NEED_AGGRESSIVE = /\p{L}[013457@$]|[013457@$]\p{L}|[\p{L}\p{N}][-_*~^|/\\+][\p{L}\p{N}]|[ıɑɡᴀ-ᴢꜰꜱ]/u;
const LOOKALIKE_SCRIPT = /[\u0370-\u052f]/;
const NON_ASCII = /[^\x00-\x7f]/;
const LEXICON = new Set(SEGMENT_LEXICON);

/**
 * The matching copy, or null when it would add nothing: a change only matters if it spells a
 * known word ("11am" -> "iiam" does not), so ordinary text is matched once, not twice.
 */
export function buildMatchingCopy(text: string, latinDominant: boolean, signals: ObfuscationSignals): string | null {
  // Whole-word Cyrillic/Greek look-alikes only matter in mostly Latin text.
  if (!MIGHT_NEED_AGGRESSIVE.test(text) && !(latinDominant && LOOKALIKE_SCRIPT.test(text))) return null;
  let meaningful = false;
  const out = text.replace(AGGRESSIVE_TARGETS, (token) => {
    if (GLUE.test(token)) {
      // "ignore_all_previous_instructions": glue between words, undone when a part is a trigger.
      const parts = token.split(GLUE_SPLIT);
      if (!parts.some((part) => STRONG_TRIGGERS.has(readLookalikes(readLeet(part), latinDominant)))) return token;
      meaningful = true;
      return parts
        .map((part) => readLookalikes(readLeet(part), latinDominant))
        .join(' ')
        .padEnd(token.length, ' ');
    }
    const leet = readLeet(token);
    if (leet !== token && LEXICON.has(leet)) {
      meaningful = true;
      if (STRONG_TRIGGERS.has(leet) && signals.leetTriggerWords.length < MAX_SIGNAL_SAMPLES) signals.leetTriggerWords.push(leet);
    }
    const lookalike = readLookalikes(leet, latinDominant);
    if (lookalike !== leet && LEXICON.has(lookalike)) {
      meaningful = true;
      if (STRONG_TRIGGERS.has(lookalike) && signals.lookalikeTriggerWords.length < MAX_SIGNAL_SAMPLES)
        signals.lookalikeTriggerWords.push(lookalike);
    }
    return lookalike;
  });
  return meaningful ? out : null;
}

/** Digits and $/@ as letters, only in tokens that also contain letters ("10am" stays mostly intact). */
function readLeet(token: string): string {
  if (!/[013457@$]/.test(token) || !/\p{L}/u.test(token)) return token;
  let withI = '';
  for (let i = 0; i < token.length; i++) withI += LEET_TO_LATIN[token[i]] ?? token[i];
  if (!token.includes('1') || LEXICON.has(withI)) return withI;
  let withL = '';
  for (let i = 0; i < token.length; i++) withL += token[i] === '1' ? 'l' : (LEET_TO_LATIN[token[i]] ?? token[i]);
  return LEXICON.has(withL) ? withL : withI;
}

/**
 * Small capitals and the like always; whole Cyrillic/Greek words only when the text is mostly
 * Latin and every letter of the word has a Latin twin (an English sentence with "рассо" in it).
 */
function readLookalikes(token: string, latinDominant: boolean): string {
  if (!NON_ASCII.test(token)) return token;
  let allTwins = latinDominant;
  let out = '';
  for (let i = 0; i < token.length; i++) {
    const ch = token[i];
    const small = LATIN_LOOKALIKES[ch];
    if (small !== undefined) {
      out += small;
      continue;
    }
    const script = scriptOf(token.charCodeAt(i));
    if (script === 'cyrillic' || script === 'greek') {
      if (HOMOGLYPHS_TO_LATIN[ch] === undefined) allTwins = false;
    }
    out += ch;
  }
  if (!allTwins) return out;
  let mapped = '';
  for (let i = 0; i < out.length; i++) mapped += HOMOGLYPHS_TO_LATIN[out[i]] ?? out[i];
  return mapped;
}
