import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PoisoningCorpus } from '../../src/lessons/sanitizer/corpus-evaluation';
import { sanitizeInput } from '../../src/lessons/sanitizer/sanitize-input';

/**
 * Budgets: < 0.2 ms for a typical memory, well under 100 ms for 100k characters of adversarial
 * input (no catastrophic backtracking). Measured as CPU time of this process, not wall time, so a
 * busy CI machine does not fail the test; each long input is run once first, because V8 compiles
 * a regex to native code the first time it meets a long subject and that cost is paid once per
 * process, not per call.
 */
const cpuMs = (run: () => void): number => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const TYPICAL =
  'Prefers morning meetings before 11am, vegetarian, allergic to peanuts. Works at Acme Corp as a backend engineer on the payments team; uses PostgreSQL 16 and TypeScript. Wants weekly summaries on Fridays. Daughter Lena starts school in September.';

const repeatTo = (fragment: string, length: number): string => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);

describe('sanitizer performance', () => {
  it('screens a typical 300-character memory in under 0.2 ms', () => {
    for (let i = 0; i < 300; i++) sanitizeInput(TYPICAL);
    const runs = 2000;
    const perCall = cpuMs(() => {
      for (let i = 0; i < runs; i++) sanitizeInput(TYPICAL);
    }) / runs;
    expect(perCall).toBeLessThan(0.2);
  });

  const corpus = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;
  const PATHOLOGICAL: [string, string][] = [
    ['one letter', 'a'.repeat(100_000)],
    ['spaced letters', repeatTo('a ', 100_000)],
    ['spaced trigger words', repeatTo('I g n o r e   a l l   p r e v i o u ', 100_000)],
    ['dotted letters', repeatTo('i.', 100_000)],
    ['trigger verb', repeatTo('ignore ', 100_000)],
    ['trigger prefix', repeatTo('ignore all previous ', 100_000)],
    ['scope without payload', repeatTo('from now on you ', 100_000)],
    ['address without order', repeatTo('you ', 100_000)],
    ['pipe without shell', repeatTo('curl ', 100_000)],
    ['template openers', repeatTo('<|', 100_000)],
    ['markdown images', repeatTo('![x](http://a/?', 100_000)],
    ['zero-width inside words', repeatTo('i\u200bg', 100_000)],
    ['mixed-script words', repeatTo('аa ', 100_000)],
    ['leetspeak', repeatTo('1gn0r3 ', 100_000)],
    ['base64-looking tokens', repeatTo('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo ', 100_000)],
    ['quotes', repeatTo(`'ignore previous instructions' `, 100_000)],
    ['Chinese trigger', repeatTo('忽略', 100_000)],
    ['Russian trigger', repeatTo('игнорируй ', 100_000)],
    ['whitespace', ' '.repeat(100_000)],
    // Prefixes of every adversarial corpus entry, repeated: each rule's anchors without its ending.
    ...corpus.adversarial
      .filter((_entry, i) => i % 7 === 0)
      .map((entry): [string, string] => [`corpus prefix: ${entry.text.slice(0, 24)}`, repeatTo(`${entry.text.slice(0, 35)} `, 100_000)]),
  ];

  it.each(PATHOLOGICAL)('screens 100k characters of %s in well under 100 ms', (_name, text) => {
    sanitizeInput(text);
    expect(cpuMs(() => sanitizeInput(text))).toBeLessThan(100);
  });
});
