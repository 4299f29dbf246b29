/**
 * `npm run train:gate`: trains the write gate's classifier on the whole labelled corpus with a
 * fixed seed and writes src/lessons/classifier/gate-model.json (int8 weights, the bias, and the
 * thresholds chosen on held-out folds of the same corpus). Deterministic: the same corpus and
 * seed give the same file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../src/common/project-root';
import { GATE_CORPUS_PATH, loadGateCorpus } from '../src/lessons/classifier/gate-corpus';
import { chooseThresholds, prepare, train } from '../src/lessons/classifier/gate-evaluation';
import { storeModel } from '../src/lessons/classifier/gate-model';
import { DEFAULT_TRAINING } from '../src/lessons/classifier/logistic-regression';

const root = findProjectRoot();
const started = Date.now();
const prepared = prepare(loadGateCorpus(root));
const thresholds = chooseThresholds(prepared, DEFAULT_TRAINING, DEFAULT_TRAINING.seed);
const model = train(prepared, DEFAULT_TRAINING);
const stored = storeModel(model, thresholds, {
  adversarial: prepared.filter((p) => p.positive).length,
  legitimate: prepared.filter((p) => !p.positive).length,
  seed: DEFAULT_TRAINING.seed,
  corpus: GATE_CORPUS_PATH,
});
const out = join(root, 'src', 'lessons', 'classifier', 'gate-model.json');
writeFileSync(out, `${JSON.stringify(stored)}\n`);
console.log(
  `wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s: threshold ${stored.threshold.toFixed(4)}, continuation ${stored.continuationThreshold.toFixed(4)}, ${stored.trainedOn.adversarial} adversarial / ${stored.trainedOn.legitimate} legitimate entries`,
);
