/**
 * Quoted mentions in a discussion of attacks: "the paper shows that 'ignore previous
 * instructions' attacks still work on small models". Security teams keep notes like that.
 *
 * The exemption is deliberately narrow, because "discussion framing" is itself an evasion:
 * - the match sits inside a short quoted span (at most MAX_QUOTED characters);
 * - the span carries no URL or e-mail address (no payload can be delivered from it);
 * - the quote is framed as a specimen: preceded by "like", "such as", "the phrase"... or
 *   followed by "attack", "prompt", "jailbreak", "-style"...
 * An unquoted or long quoted instruction is still blocked.
 */

const QUOTE_CHARS = new Set(['"', "'", '“', '”', '‘', '’', '«', '»', '„', '‚', '「', '」', '『', '』', '`']);
const MAX_QUOTED = 90;
const SEARCH = 70;
const LETTER = /[\p{L}\p{N}]/u;
const CARRIES_PAYLOAD = /https?:|www\.|@[\w-]+\.|\.(?:com|net|org|io|ru|xyz)\b/;
const FRAMED_BEFORE =
  /(?:\blike|\bsuch as|\binclud(?:e|es|ing)|\btitled|\bentitled|\bnamed|\bheadlined|['"”’»]\s*(?:,|and|or|&)|\be\.g\.,?|\bi\.e\.,?|\bthe (?:phrase|string|sentence|line|prompt|classic|infamous|famous|old|usual|well-known|standard)|\bphrases? like|\bstrings? like|\btext like|\bpayloads? like|\bprompts? like|\binstructions? like|\bcalled|\bknown as|\bclassic|\binfamous|\bfamous|\bso-called|\bexamples?:?|\bvariants? of|\bversions? of|\bvariations? of|\bcontaining|\bcontains|\bsentences? like|\bwords? like|\battacks? like|\bwith|\bsuch|\bdetect|\bdetects|\bdetecting|\bflag|\bflags|\bflagging|\bblock|\bblocks|\bblocking|\bfilter|\bfilters|\bagainst)\s*[:,]?\s*$/;
const FRAMED_AFTER =
  /^\s*[,.;:)]?\s*(?:attacks?|prompts?|jailbreaks?|payloads?|injections?|-?style|tricks?|techniques?|phrases?|strings?|examples?|attempts?|exploits?|patterns?|variants?|type|kind|family|still works?|(?:is|was|are|were)\s+(?:a|an|the|one|still|probably|often|usually|now|perhaps|just|only|not)\b|(?:was|were|got|has been|have been|is|are)\s+(?:removed|deleted|blocked|flagged|caught|detected|reported|banned|filtered|rejected|quarantined)\b|(?:and|or)\s+(?:similar|other|its|their|the like))/;

export function isQuotedMention(text: string, start: number, end: number): boolean {
  const open = findOpeningQuote(text, start);
  if (open < 0) return false;
  const close = findClosingQuote(text, end);
  if (close < 0 || close - open > MAX_QUOTED) return false;
  if (CARRIES_PAYLOAD.test(text.slice(open, close))) return false;
  const before = text.slice(Math.max(0, open - 40), open);
  const after = text.slice(close + 1, close + 41);
  return FRAMED_BEFORE.test(before) || FRAMED_AFTER.test(after);
}

/** Nearest quote before the match that opens a span (an apostrophe inside "don't" does not). */
function findOpeningQuote(text: string, start: number): number {
  for (let i = start - 1; i >= Math.max(0, start - SEARCH); i--) {
    const ch = text[i];
    if (ch === '\n') return -1;
    if (!QUOTE_CHARS.has(ch)) continue;
    const previous = text[i - 1] ?? ' ';
    const next = text[i + 1] ?? ' ';
    if (LETTER.test(previous) && LETTER.test(next)) continue;
    if (LETTER.test(previous)) return -1;
    return i;
  }
  // The match may start at the quote itself.
  return QUOTE_CHARS.has(text[start]) ? start : -1;
}

function findClosingQuote(text: string, end: number): number {
  for (let i = end; i < Math.min(text.length, end + SEARCH); i++) {
    const ch = text[i];
    if (ch === '\n') return -1;
    if (!QUOTE_CHARS.has(ch)) continue;
    const previous = text[i - 1] ?? ' ';
    const next = text[i + 1] ?? ' ';
    if (LETTER.test(previous) && LETTER.test(next)) continue;
    if (LETTER.test(next)) return -1;
    return i;
  }
  return QUOTE_CHARS.has(text[end - 1]) ? end - 1 : -1;
}
