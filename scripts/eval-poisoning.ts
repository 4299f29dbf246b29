/**
 * `npm run eval:poisoning`: runs the input sanitizer over the labelled poisoning corpus and
 * prints the confusion matrix, rates, per-category and per-language breakdowns and every miss.
 * Exits 1 when the block rate is under 95% or the false-positive rate over 1%.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import {
  BLOCK_RATE_FLOOR,
  FALSE_POSITIVE_CEILING,
  evaluateCorpus,
  meetsFloor,
  type PoisoningCorpus,
  type ScoredEntry,
  type Tally,
} from '../src/lessons/sanitizer/corpus-evaluation';

const CORPUS_PATH = join('test', 'fixtures', 'poisoning-corpus.json');

/** The directory holding package.json, found by walking up (works from scripts/ and dist/scripts/). */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
const rate = ({ blocked, total }: Tally): string => `${blocked}/${total}`.padStart(8) + `  ${percent(total ? blocked / total : 0).padStart(6)}`;
const clip = (text: string, max = 110): string => {
  const flat = JSON.stringify(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function printTable(title: string, rows: Map<string, Tally>): void {
  console.log(`\n${title}`);
  for (const [key, value] of rows) console.log(`  ${key.padEnd(24)}${rate(value)}`);
}

function printEntries(title: string, entries: ScoredEntry[]): void {
  console.log(`\n${title} (${entries.length})`);
  for (const entry of entries) {
    console.log(`  [${entry.group}/${entry.language}] ${clip(entry.text)}`);
    if (entry.findings.length === 0) console.log('      findings: none');
    for (const finding of entry.findings) console.log(`      ${finding.ruleId} [${finding.severity}] «${finding.excerpt}»`);
  }
}

function main(): number {
  const root = findProjectRoot(__dirname);
  const corpusFile = join(root, CORPUS_PATH);
  const corpus = JSON.parse(readFileSync(corpusFile, 'utf8')) as PoisoningCorpus;
  const evaluation = evaluateCorpus(corpus);
  const { adversarial, legitimate } = evaluation;

  console.log(`Poisoning corpus: ${relative(process.cwd(), corpusFile) || corpusFile}`);
  console.log(`Adversarial: ${adversarial.total}   Legitimate: ${legitimate.total}`);
  console.log('\nConfusion matrix          blocked  not blocked');
  console.log(`  adversarial          ${String(adversarial.blocked).padStart(8)} ${String(adversarial.total - adversarial.blocked).padStart(12)}`);
  console.log(`  legitimate           ${String(legitimate.blocked).padStart(8)} ${String(legitimate.total - legitimate.blocked).padStart(12)}`);
  console.log(`\nAdversarial block rate:         ${percent(evaluation.blockRate)} (floor ${percent(BLOCK_RATE_FLOOR)})`);
  console.log(`Legitimate false-positive rate: ${percent(evaluation.falsePositiveRate)} (ceiling ${percent(FALSE_POSITIVE_CEILING)})`);
  console.log(`Legitimate with warn-only findings: ${evaluation.warnOnlyLegitimate.length}`);

  printTable('Adversarial by category             blocked', evaluation.byCategory);
  printTable('Adversarial by language             blocked', evaluation.adversarialByLanguage);
  printTable('Legitimate by language              blocked', evaluation.legitimateByLanguage);
  printEntries('Missed attacks (adversarial, not blocked)', evaluation.missedAttacks);
  printEntries('False positives (legitimate, blocked)', evaluation.falsePositives);
  printEntries('Warn-only findings on legitimate entries', evaluation.warnOnlyLegitimate);

  const ok = meetsFloor(evaluation);
  console.log(`\n${ok ? 'PASS' : 'FAIL'}: block rate ${percent(evaluation.blockRate)}, false positives ${percent(evaluation.falsePositiveRate)}`);
  return ok ? 0 : 1;
}

process.exitCode = main();
