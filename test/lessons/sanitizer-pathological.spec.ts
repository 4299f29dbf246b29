import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PoisoningCorpus } from '../../src/lessons/sanitizer/corpus-evaluation';
import { PATHOLOGICAL_INPUTS, TYPICAL_MEMORY } from '../../src/lessons/sanitizer/pathological-inputs';
import { sanitizeInput } from '../../src/lessons/sanitizer/sanitize-input';

/**
 * Termination on inputs built to trigger catastrophic backtracking: an exponential regex
 * would hang here until Jest's timeout fails the test. Speed itself is measured by
 * `npm run bench:sanitizer`, not asserted (timings in unit tests fail on a busy machine).
 */
describe('sanitizer on pathological input', () => {
  const corpus = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;

  it('passes a typical memory with no findings', () => {
    expect(sanitizeInput(TYPICAL_MEMORY)).toMatchObject({ blocked: false, findings: [] });
  });

  it.each(PATHOLOGICAL_INPUTS(corpus))(
    'finishes on 100k characters of %s with a well-formed result',
    (_name, text) => {
      const result = sanitizeInput(text);
      expect(typeof result.blocked).toBe('boolean');
      expect(result.blocked).toBe(result.findings.some((f) => f.severity === 'block'));
      for (const finding of result.findings) expect(finding.excerpt.length).toBeLessThanOrEqual(80);
    },
    20_000,
  );
});
