import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../../common/project-root';

/** One labelled entry of test/fixtures/write-gate-corpus.json (built by `npm run corpus:build`). */
export interface GateCorpusEntry {
  text: string;
  label: 'adversarial' | 'legitimate';
  family: string;
  language: string;
  /** Entries of one group share a template (or are one hand-written entry) and share a fold. */
  group: string;
  category?: string;
}

export const GATE_CORPUS_PATH = join('test', 'fixtures', 'write-gate-corpus.json');

export function loadGateCorpus(root = findProjectRoot()): GateCorpusEntry[] {
  return (JSON.parse(readFileSync(join(root, GATE_CORPUS_PATH), 'utf8')) as { entries: GateCorpusEntry[] }).entries;
}
