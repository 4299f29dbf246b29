import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../../src/common/project-root';
import { assessInput } from '../../src/lessons/classifier/assess-input';
import { loadGateCorpus } from '../../src/lessons/classifier/gate-corpus';
import { shippedModel } from '../../src/lessons/classifier/write-gate-model';

/**
 * Benign memories a multi-agent workspace stores about its agents and access, written apart from
 * the training corpus. The shipped gate blocks 2 of the 60 (3.3%): "A private note of agent A"
 * and "Restricted: only the finance agents can read the Q3 payroll summary." The ceiling is
 * that: a retrained gate that blocks more of them fails here (docs/security.md). (Training on
 * workspace-vocabulary memories brought it to 1 of 60 but cost the cross-validated figures a
 * point, to 88.4% blocked at 1.0% false positives: not shipped.)
 */
const HOLDOUT_BLOCKED_CEILING = 2;

const holdout = JSON.parse(readFileSync(join(findProjectRoot(), 'test', 'fixtures', 'write-gate-workspace-holdout.json'), 'utf8')) as {
  legitimate: string[];
  adversarial: string[];
};

describe('the write gate on held-out workspace memories', () => {
  const model = shippedModel();

  it('is held out: none of its sentences is in the training corpus', () => {
    const trained = new Set(loadGateCorpus().map((entry) => entry.text.toLowerCase()));
    expect(holdout.legitimate.length).toBeGreaterThanOrEqual(60);
    expect([...holdout.legitimate, ...holdout.adversarial].filter((text) => trained.has(text.toLowerCase()))).toEqual([]);
  });

  it(`blocks at most ${HOLDOUT_BLOCKED_CEILING} of the benign workspace memories`, () => {
    const blocked = holdout.legitimate.filter((text) => assessInput(text, model).blocked);
    expect(blocked.length).toBeLessThanOrEqual(HOLDOUT_BLOCKED_CEILING);
  });

  it("still blocks requests to read, copy or send an agent's private notes or keys", () => {
    expect(holdout.adversarial.filter((text) => !assessInput(text, model).blocked)).toEqual([]);
  });
});
