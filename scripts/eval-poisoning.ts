/**
 * `npm run eval:poisoning`: the honest figures of the write gate on the labelled corpus
 * (test/fixtures/write-gate-corpus.json). Headline: stratified, grouped 5-fold cross-validation
 * (a template's variants never straddle folds), then leave-one-family-out, each per family and
 * beside the rules alone. Exits 1 below the floors (CI runs it at full size).
 *
 *   npm run eval:poisoning              # all figures, misses and false positives
 *   node dist/scripts/eval-poisoning.js --quiet   # figures only
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../src/common/project-root';
import { loadGateCorpus } from '../src/lessons/classifier/gate-corpus';
import {
  crossValidate,
  CV_BLOCK_FLOOR,
  CV_FALSE_POSITIVE_CEILING,
  leaveOneFamilyOut,
  LOFO_BLOCK_FLOOR,
  prepare,
  summarise,
  type Outcome,
  type Tally,
} from '../src/lessons/classifier/gate-evaluation';
import { DEFAULT_TRAINING } from '../src/lessons/classifier/logistic-regression';
import { evaluateCorpus, type PoisoningCorpus } from '../src/lessons/sanitizer/corpus-evaluation';

/**
 * What CI holds: the figures this corpus reaches today, rounded down. The issue's targets
 * (95% / 1% cross-validated, 80% leave-one-family-out) are printed beside them; see
 * docs/security.md for where they are missed and why.
 */
const CI_FLOORS = { cvBlock: 0.88, cvFalsePositives: CV_FALSE_POSITIVE_CEILING, lofoBlock: 0.74 };

const quiet = process.argv.includes('--quiet');
const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const rate = (t: Tally): string => `${`${t.blocked}/${t.total}`.padStart(9)} ${pct(t.total ? t.blocked / t.total : 0).padStart(6)}`;
const clip = (text: string, max = 110): string => {
  const flat = JSON.stringify(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function main(): number {
  const started = Date.now();
  const prepared = prepare(loadGateCorpus());
  const attacks = prepared.filter((p) => p.positive).length;
  console.log(
    `Write-gate corpus: ${attacks} adversarial, ${prepared.length - attacks} legitimate entries, ${new Set(prepared.map((p) => p.entry.group)).size} groups`,
  );

  const cv = crossValidate(prepared, DEFAULT_TRAINING);
  const gate = summarise(cv.outcomes, (o) => o.gateBlocked);
  const rules = summarise(cv.outcomes, (o) => o.rulesBlocked);
  const lofo = leaveOneFamilyOut(prepared, DEFAULT_TRAINING);
  const lofoRates = [...lofo.values()].map((outcomes) => outcomes.filter((o) => o.gateBlocked).length / outcomes.length);
  const lofoAverage = lofoRates.reduce((a, b) => a + b, 0) / lofoRates.length;
  const lofoPooled = [...lofo.values()].flat();

  console.log(`\nThresholds chosen on the training folds: ${cv.thresholds.map((t) => t.threshold.toFixed(3)).join(', ')}`);
  console.log('\n                              attacks blocked        legitimate blocked');
  console.log(`  rules only                  ${rate(rules.attacks)}        ${rate(rules.legitimate)}`);
  console.log(`  rules + classifier (5-fold) ${rate(gate.attacks)}        ${rate(gate.legitimate)}`);
  console.log(
    `  leave-one-family-out        average ${pct(lofoAverage)} per family, pooled ${rate({ blocked: lofoPooled.filter((o) => o.gateBlocked).length, total: lofoPooled.length })}`,
  );

  console.log('\nPer family                           rules only        5-fold CV   left out (LOFO)');
  for (const [family, row] of gate.byFamily) {
    const held = lofo.get(family.replace(/^adversarial\//, ''));
    const lofoCell =
      family.startsWith('adversarial/') && held ? rate({ blocked: held.filter((o) => o.gateBlocked).length, total: held.length }) : '';
    console.log(`  ${family.padEnd(32)} ${rate(row.rules)} ${rate(row.gate)} ${lofoCell}`);
  }

  if (!quiet) {
    const print = (title: string, outcomes: Outcome[]) => {
      console.log(`\n${title} (${outcomes.length})`);
      for (const o of outcomes)
        console.log(
          `  [${o.prepared.entry.group}] score ${o.score.toFixed(3)}${o.rulesBlocked ? ' rules' : ''} ${clip(o.prepared.entry.text)}`,
        );
    };
    print(
      'False positives in cross-validation',
      cv.outcomes.filter((o) => !o.prepared.positive && o.gateBlocked),
    );
    print(
      'Attacks missed in cross-validation',
      cv.outcomes.filter((o) => o.prepared.positive && !o.gateBlocked),
    );
  }

  // The rules on the corpus they were written against: a development figure, not a held-out one.
  const hand = JSON.parse(readFileSync(join(findProjectRoot(), 'test', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;
  const sanitizer = evaluateCorpus(hand);
  console.log(
    `\nRules on their own development corpus (poisoning-corpus.json): attacks ${rate(sanitizer.adversarial)}, legitimate ${rate(sanitizer.legitimate)}`,
  );

  const checks: [string, boolean][] = [
    [
      `5-fold block rate ${pct(gate.blockRate)} >= ${pct(CI_FLOORS.cvBlock)} (target ${pct(CV_BLOCK_FLOOR)})`,
      gate.blockRate >= CI_FLOORS.cvBlock,
    ],
    [
      `5-fold false positives ${pct(gate.falsePositiveRate)} <= ${pct(CI_FLOORS.cvFalsePositives)}`,
      gate.falsePositiveRate <= CI_FLOORS.cvFalsePositives,
    ],
    [
      `leave-one-family-out average ${pct(lofoAverage)} >= ${pct(CI_FLOORS.lofoBlock)} (target ${pct(LOFO_BLOCK_FLOOR)})`,
      lofoAverage >= CI_FLOORS.lofoBlock,
    ],
  ];
  console.log('');
  for (const [text, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  const targets =
    gate.blockRate >= CV_BLOCK_FLOOR && gate.falsePositiveRate <= CV_FALSE_POSITIVE_CEILING && lofoAverage >= LOFO_BLOCK_FLOOR;
  console.log(`issue targets (95% / 1% CV, 80% LOFO): ${targets ? 'met' : 'not met'}`);
  const cpu = process.cpuUsage();
  console.log(`evaluated in ${((Date.now() - started) / 1000).toFixed(1)} s (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU)`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

process.exitCode = main();
