/**
 * Write-gate cost: CPU time of the whole-input assessment (rules and classifier on every
 * sentence and on the whole input) for a memory of ordinary length, and for the 100k-character
 * pathological inputs of the sanitizer benchmark.
 *
 *   npm run bench:gate
 *
 * Figures are printed, not asserted. CPU time of this process, as in bench/sanitizer.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../src/common/project-root';
import { assessInput } from '../src/lessons/classifier/assess-input';
import { shippedModel } from '../src/lessons/classifier/write-gate-model';
import type { PoisoningCorpus } from '../src/lessons/sanitizer/corpus-evaluation';
import { PATHOLOGICAL_INPUTS, TYPICAL_MEMORY } from '../src/lessons/sanitizer/pathological-inputs';

const cpuMs = (run: () => void): number => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const model = shippedModel();
const corpus = JSON.parse(readFileSync(join(findProjectRoot(), 'test', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;

for (let i = 0; i < 300; i++) assessInput(TYPICAL_MEMORY, model);
const batches: number[] = [];
for (let b = 0; b < 21; b++)
  batches.push(
    cpuMs(() => {
      for (let i = 0; i < 200; i++) assessInput(TYPICAL_MEMORY, model);
    }) / 200,
  );
console.log(
  `typical ${TYPICAL_MEMORY.length}-character memory: p50 ${(median(batches) * 1000).toFixed(0)} µs CPU per assessment (21 batches of 200)`,
);

const short = corpus.legitimate.slice(0, 300).map((entry) => entry.text);
const perEntry = short.map((text) => {
  assessInput(text, model);
  return (
    cpuMs(() => {
      for (let i = 0; i < 20; i++) assessInput(text, model);
    }) / 20
  );
});
console.log(
  `300 legitimate corpus memories (${Math.round(short.reduce((n, t) => n + t.length, 0) / short.length)} characters on average): p50 ${(median(perEntry) * 1000).toFixed(0)} µs CPU`,
);

const times: number[] = [];
for (const [name, text] of PATHOLOGICAL_INPUTS(corpus)) {
  assessInput(text, model);
  const ms = cpuMs(() => assessInput(text, model));
  times.push(ms);
  console.log(`${name.padEnd(48).slice(0, 48)} ${text.length} chars: ${ms.toFixed(1)} ms CPU`);
}
console.log(
  `pathological inputs: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${times.length} inputs`,
);
