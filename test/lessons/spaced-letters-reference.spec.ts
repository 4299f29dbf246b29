import fc from 'fast-check';

import { normalizeText } from '../../src/lessons/sanitizer/normalize-text';
import { collapseSpacedLetters, segment } from '../../src/lessons/sanitizer/spaced-letters';

/**
 * The linear spaced-letter scanner finds exactly the runs the old quadratic one found (issue 20).
 * The old one is kept here as the specification: from every possible start it re-read the rest of
 * the chain, chose the most common separator of what followed, and kept the run when it had
 * enough units and letters.
 */
const SEPARATOR_CHARS = new Set([' ', '\t', '.', '-', '_', '*', '·', '•', '|', '+', '~', '/']);
const isUnit = (ch: string): boolean =>
  /^[a-z0-9@$\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]$/iu.test(ch) && !/^\p{M}$/u.test(ch);
const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /^[\p{L}\p{N}\p{M}]$/u.test(ch);

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

/** The runs the old scanner found: where, its units, and which of them start a word. */
function referenceRuns(text: string): { start: number; end: number; units: string[]; breaks: boolean[] }[] {
  const runs: { start: number; end: number; units: string[]; breaks: boolean[] }[] = [];
  let i = 0;
  while (i < text.length) {
    if (!SEPARATOR_CHARS.has(text[i + 1] ?? '') || !isUnit(text[i]) || (i > 0 && isWordChar(text[i - 1]))) {
      i++;
      continue;
    }
    const units = [text[i]];
    const separators = [''];
    const ends = [i + 1];
    let j = i + 1;
    for (;;) {
      let k = j;
      while (k < text.length && k - j < 4 && SEPARATOR_CHARS.has(text[k])) k++;
      if (k === j || k >= text.length || !isUnit(text[k]) || (k + 1 < text.length && isWordChar(text[k + 1]))) break;
      units.push(text[k]);
      separators.push(text.slice(j, k));
      j = k + 1;
      ends.push(j);
    }
    let count = 0;
    const breaks = [false];
    if (units.length >= 4) {
      const base = mostCommon(separators.slice(1));
      count = 1;
      for (let k = 1; k < units.length; k++) {
        const s = separators[k];
        const keeps =
          s === base || (s.length > base.length && (s.includes(base) || s.trim() === '')) || (s.trim() === '' && base.trim() !== '');
        if (!keeps) break;
        breaks.push(s !== base);
        count++;
      }
    }
    const letters = units.slice(0, count).filter((unit) => /^\p{L}$/u.test(unit)).length;
    if (count < 4 || letters < 3) {
      i++;
      continue;
    }
    runs.push({ start: i, end: ends[count - 1], units: units.slice(0, count), breaks });
    i = ends[count - 1];
  }
  return runs;
}

/** The text with the reference's runs collapsed: words joined, long ones segmented with the lexicon. */
function collapsedByReference(text: string): string {
  let out = '';
  let copied = 0;
  for (const { start, end, units, breaks } of referenceRuns(text)) {
    const joined = units.map((unit, k) => (breaks[k] ? ' ' : '') + unit).join('');
    const words = joined.split(' ').map((word) => (word.length >= 8 && word.length <= 400 ? segment(word) : word));
    out += text.slice(copied, start) + words.join(' ');
    copied = end;
  }
  return out + text.slice(copied);
}

const UNITS = ['a', 'b', 'i', 'g', 'n', 'o', 'r', 'e', 'я', 'ω', '1', '3', '$', '@', 'ab', 'X', '字'];
const SEPARATORS = [' ', '  ', '   ', '     ', '.', '. ', ' . ', '..', '-', '.-', '_', '*', '|', '/', '~', '·', '\t', ',', '\n'];

describe('the linear spaced-letter scanner', () => {
  it('finds the same runs as the quadratic reference on chains of units and separators', () => {
    const chain = fc
      .array(fc.tuple(fc.constantFrom(...UNITS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 40 })
      .map((pairs) => pairs.map(([unit, separator]) => unit + separator).join(''));
    fc.assert(
      fc.property(fc.constantFrom('', 'x ', 'word '), chain, (prefix, body) => {
        const text = (prefix + body).toLowerCase();
        expect(collapseSpacedLetters(text).text).toBe(collapsedByReference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('still collapses a run that follows a longer chain of other separators', () => {
    // The chain's most common separator (a space) ends the run at the first dot; the run
    // "a.b.c.d" is found from its own start, as the old scanner found it.
    expect(collapseSpacedLetters('1 1 1 1 1 a.b.c.d').text).toBe('1 1 1 1 1 abcd');
  });
});

describe('NFKC expansion is bounded', () => {
  it('refuses text that normalisation would grow far past its size, and cuts it there', () => {
    const text = '\ufdfa'.repeat(100_000);
    const result = normalizeText(text);
    expect(result.signals.expandedBeyond).toBe(true);
    expect(result.normalized.length).toBeLessThanOrEqual(150_000);
  });

  it('leaves ordinary compatibility characters alone', () => {
    const result = normalizeText('Meeting at ９:３０ in Ｒｏｏｍ ５, ﬁnal ﬂoor plan, 10 ㎒, ﷺ');
    expect(result.signals.expandedBeyond).toBe(false);
  });
});
