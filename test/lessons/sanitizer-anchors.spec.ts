import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AnchorIndex } from '../../src/lessons/sanitizer/anchor-index';
import type { PoisoningCorpus } from '../../src/lessons/sanitizer/corpus-evaluation';
import { repairWordBoundaries } from '../../src/lessons/sanitizer/glued-words';
import { normalizeText } from '../../src/lessons/sanitizer/normalize-text';
import { anchorsOf } from '../../src/lessons/sanitizer/pattern-anchors';
import { RuleMatcher } from '../../src/lessons/sanitizer/rule-matcher';
import { PATTERN_RULES } from '../../src/lessons/sanitizer/sanitizer-rules';

describe('anchorsOf (the prefilter reads a pattern source)', () => {
  it.each([
    [String.raw`\bignore\s+all`, ['ignore']],
    [String.raw`\b(?:ignore|disregard)\s+x`, ['ignore', 'disregard']],
    [String.raw`(?:in|to) (?:all|every) x`, ['in all x', 'in every x', 'to all x', 'to every x']],
    [String.raw`(?<![\p{L}])don'?t follow`, ['don']],
    [String.raw`prompts?\b`, ['prompt']],
    [String.raw`a\.i\. reading`, ['a.i. reading']],
    [String.raw`x+y`, ['x']],
    [String.raw`ab|cd`, ['ab', 'cd']],
  ])('%s -> %j', (source, expected) => {
    expect(anchorsOf(source)).toEqual(expected);
  });

  it.each([
    String.raw`(?:^|\n)system`,
    String.raw`[abc]def`,
    String.raw`(?:x)?y`,
    String.raw`\s+foo`,
    String.raw`a|(?:)`,
    String.raw`.foo`,
  ])('gives up (always run) on %s', (source) => {
    expect(anchorsOf(source)).toBeNull();
  });

  it('finds an anchor for every rule pattern that starts with a literal', () => {
    for (const rule of PATTERN_RULES) {
      for (const pattern of rule.patterns) {
        const anchors = anchorsOf(pattern.source);
        if (anchors === null) continue;
        expect(anchors.every((anchor) => anchor.length > 0)).toBe(true);
      }
    }
  });
});

describe('AnchorIndex', () => {
  it('finds overlapping and nested anchors in one pass', () => {
    const index = new AnchorIndex(['he', 'she', 'his', 'hers', 'игнор', '忽略']);
    const found = index.scan('ushers ignore: игнорируй 忽略');
    const hit = (anchor: string): number => found[index.idOf(anchor)];
    expect([hit('he'), hit('she'), hit('hers'), hit('his'), hit('игнор'), hit('忽略')]).toEqual([1, 1, 1, 0, 1, 1]);
  });
});

describe('the prefilter never changes a result', () => {
  const corpus = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;
  const withPrefilter = new RuleMatcher(PATTERN_RULES);
  const withoutPrefilter = new RuleMatcher(PATTERN_RULES, { prefilter: false });

  it('matches the same rules at the same places on every corpus entry', () => {
    for (const { text } of [...corpus.adversarial, ...corpus.legitimate]) {
      const { normalized, aggressive } = normalizeText(text);
      const repaired = repairWordBoundaries(normalized);
      const summarize = (matcher: RuleMatcher) =>
        matcher.matchAll(normalized, aggressive, true, repaired).map((hit) => [hit.rule.id, hit.start, hit.end]);
      expect(summarize(withPrefilter)).toEqual(summarize(withoutPrefilter));
    }
  });
});
