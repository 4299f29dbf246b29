/**
 * Sanitizer speed: CPU time per call for a typical memory and for 100k-character
 * pathological inputs (the ones that would expose catastrophic regex backtracking).
 *
 *   npm run bench:sanitizer
 *
 * Figures are printed, not asserted: timings belong in a benchmark, not in unit tests.
 * CPU time of this process is used rather than wall time; each long input runs once first,
 * because V8 compiles a regex to native code the first time it meets a long subject.
 *
 * Last, the absolute worst case: every unit of ADVERSARIAL_UNITS (the families that made the old
 * gate quadratic, issue 20) repeated to 100,000 characters, through the sanitizer and through the
 * whole-input assessment (the write gate's CPU work), fastest of three runs each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../src/common/project-root';
import { assessInput } from '../src/lessons/classifier/assess-input';
import { shippedModel } from '../src/lessons/classifier/write-gate-model';
import type { PoisoningCorpus } from '../src/lessons/sanitizer/corpus-evaluation';
import { ADVERSARIAL_UNITS, PATHOLOGICAL_INPUTS, repeatUnit, TYPICAL_MEMORY } from '../src/lessons/sanitizer/pathological-inputs';
import { sanitizeInput } from '../src/lessons/sanitizer/sanitize-input';

const cpuMs = (run: () => void): number => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const corpus = JSON.parse(readFileSync(join(findProjectRoot(), 'test', 'fixtures', 'poisoning-corpus.json'), 'utf8')) as PoisoningCorpus;

for (let i = 0; i < 300; i++) sanitizeInput(TYPICAL_MEMORY);
const runs = 5000;
const perCall =
  cpuMs(() => {
    for (let i = 0; i < runs; i++) sanitizeInput(TYPICAL_MEMORY);
  }) / runs;
console.log(`typical ${TYPICAL_MEMORY.length}-character memory: ${(perCall * 1000).toFixed(1)} µs CPU per call (${runs} calls)`);

const inputs = PATHOLOGICAL_INPUTS(corpus);
const times: number[] = [];
for (const [name, text] of inputs) {
  sanitizeInput(text);
  const ms = cpuMs(() => sanitizeInput(text));
  times.push(ms);
  console.log(`${name.padEnd(48).slice(0, 48)} ${text.length} chars: ${ms.toFixed(1)} ms CPU`);
}
times.sort((a, b) => a - b);
console.log(
  `pathological inputs: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms over ${times.length} inputs`,
);

const model = shippedModel();
const fastest = (run: () => void): number => Math.min(cpuMs(run), cpuMs(run), cpuMs(run));
let worst = { name: '', sanitize: 0, assess: 0 };
for (const [name, unit] of ADVERSARIAL_UNITS) {
  const text = repeatUnit(unit, 100_000);
  const sanitize = fastest(() => sanitizeInput(text));
  const assess = fastest(() => assessInput(text, model));
  console.log(
    `worst-case family ${name.padEnd(38).slice(0, 38)} 100000 chars: sanitizer ${sanitize.toFixed(1)} ms, whole gate ${assess.toFixed(1)} ms CPU`,
  );
  if (assess > worst.assess) worst = { name, sanitize, assess };
}
console.log(
  `absolute worst case at 100000 characters: ${worst.name}, whole gate ${worst.assess.toFixed(1)} ms CPU (sanitizer ${worst.sanitize.toFixed(1)} ms)`,
);
