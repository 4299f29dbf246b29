/**
 * Inputs that would expose catastrophic regex backtracking in the sanitizer: long runs of
 * trigger fragments without their endings. Shared by the termination test and the
 * benchmark (bench/sanitizer.ts).
 */
import type { PoisoningCorpus } from './corpus-evaluation';

export const TYPICAL_MEMORY =
  'Prefers morning meetings before 11am, vegetarian, allergic to peanuts. Works at Acme Corp as a backend engineer on the payments team; uses PostgreSQL 16 and TypeScript. Wants weekly summaries on Fridays. Daughter Lena starts school in September.';

const repeatTo = (fragment: string, length: number): string => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);

export function PATHOLOGICAL_INPUTS(corpus: PoisoningCorpus, length = 100_000): [string, string][] {
  return [
    ['one letter', 'a'.repeat(length)],
    ['spaced letters', repeatTo('a ', length)],
    ['spaced trigger words', repeatTo('I g n o r e   a l l   p r e v i o u ', length)],
    ['dotted letters', repeatTo('i.', length)],
    ['trigger verb', repeatTo('ignore ', length)],
    ['trigger prefix', repeatTo('ignore all previous ', length)],
    ['scope without payload', repeatTo('from now on you ', length)],
    ['address without order', repeatTo('you ', length)],
    ['pipe without shell', repeatTo('curl ', length)],
    ['template openers', repeatTo('<|', length)],
    ['markdown images', repeatTo('![x](http://a/?', length)],
    ['zero-width inside words', repeatTo('i\u200bg', length)],
    ['mixed-script words', repeatTo('аa ', length)],
    ['leetspeak', repeatTo('1gn0r3 ', length)],
    ['base64-looking tokens', repeatTo('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo ', length)],
    ['quotes', repeatTo(`'ignore previous instructions' `, length)],
    ['Chinese trigger', repeatTo('忽略', length)],
    ['Russian trigger', repeatTo('игнорируй ', length)],
    ['whitespace', ' '.repeat(length)],
    // Prefixes of every seventh adversarial corpus entry, repeated: rule anchors without endings.
    ...corpus.adversarial
      .filter((_entry, i) => i % 7 === 0)
      .map((entry): [string, string] => [`corpus prefix: ${entry.text.slice(0, 24)}`, repeatTo(`${entry.text.slice(0, 35)} `, length)]),
  ];
}

/**
 * Short units that, repeated to 100k characters, made the gate superlinear or slow once (issue 20:
 * "1 " took 347 s in process, runs of U+200B 11 s at 16k, U+FDFA expands 18-fold), and their
 * relatives. Shared by the superlinearity test (test/lessons/gate-linear-time.spec.ts) and the
 * benchmark's worst case (bench/sanitizer.ts).
 */
export const ADVERSARIAL_UNITS: readonly [string, string][] = [
  ['digit space', '1 '],
  ['digit dot', '1.'],
  ['dollar space', '$ '],
  ['letter dot letter dash', 'a.b-'],
  ['IP list', '1.2.3.4 '],
  ['mixed separators', '1 .-2_3*4|5/'],
  ['letters, mixed separators', 'a . b-c  d_'],
  ['spaced letters', 'a '],
  ['dotted letters', 'i.'],
  ['zero-width spaces', '\u200b'],
  ['word joiners', '\u2060'],
  ['byte order marks', '\ufeff'],
  ['letter, zero-width space', 'a\u200b'],
  ['U+FDFA (18-fold under NFKC)', '\ufdfa'],
  ['U+3316 (6-fold under NFKC)', '\u3316'],
  ['dotted capital I (2-fold lower-cased)', '\u0130'],
  ['newlines', '\n'],
  ['sentence ends', 'a. '],
  ['quoted letters', "'a' "],
  ['combining marks', 'a\u0301\u0301'],
  ['tag characters', '\u{E0041}'],
  ['variation selectors', '\ufe0f'],
  ['bidi overrides', '\u202e'],
];

/** `unit` repeated to exactly `length` characters (a surrogate pair cut at the end is dropped). */
export function repeatUnit(unit: string, length: number): string {
  const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
