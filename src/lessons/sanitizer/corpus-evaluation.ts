import { sanitizeInput } from './sanitize-input';
import type { SanitizerFinding } from './sanitizer.types';

/**
 * Scores the sanitizer against a labelled corpus (test/fixtures/poisoning-corpus.json). Shared by
 * `npm run eval:poisoning` and the floor test, so both report the same computed figures.
 */

export interface AdversarialEntry {
  text: string;
  category: string;
  language: string;
  note?: string;
}

export interface LegitimateEntry {
  text: string;
  kind: string;
  language: string;
}

export interface PoisoningCorpus {
  adversarial: AdversarialEntry[];
  legitimate: LegitimateEntry[];
}

export interface Tally {
  blocked: number;
  total: number;
}

export interface ScoredEntry {
  text: string;
  group: string;
  language: string;
  blocked: boolean;
  findings: SanitizerFinding[];
}

export interface CorpusEvaluation {
  adversarial: Tally;
  legitimate: Tally;
  /** blocked / total for adversarial entries. */
  blockRate: number;
  /** blocked / total for legitimate entries. */
  falsePositiveRate: number;
  byCategory: Map<string, Tally>;
  adversarialByLanguage: Map<string, Tally>;
  legitimateByLanguage: Map<string, Tally>;
  missedAttacks: ScoredEntry[];
  falsePositives: ScoredEntry[];
  /** Legitimate entries that were not blocked but raised warn findings. */
  warnOnlyLegitimate: ScoredEntry[];
}

export const BLOCK_RATE_FLOOR = 0.95;
export const FALSE_POSITIVE_CEILING = 0.01;

export function evaluateCorpus(corpus: PoisoningCorpus): CorpusEvaluation {
  const adversarial = corpus.adversarial.map((entry) => score(entry.text, entry.category, entry.language));
  const legitimate = corpus.legitimate.map((entry) => score(entry.text, entry.kind, entry.language));
  const adversarialTally = tally(adversarial);
  const legitimateTally = tally(legitimate);
  return {
    adversarial: adversarialTally,
    legitimate: legitimateTally,
    blockRate: ratio(adversarialTally),
    falsePositiveRate: ratio(legitimateTally),
    byCategory: groupTally(adversarial, (entry) => entry.group),
    adversarialByLanguage: groupTally(adversarial, (entry) => entry.language),
    legitimateByLanguage: groupTally(legitimate, (entry) => entry.language),
    missedAttacks: adversarial.filter((entry) => !entry.blocked),
    falsePositives: legitimate.filter((entry) => entry.blocked),
    warnOnlyLegitimate: legitimate.filter((entry) => !entry.blocked && entry.findings.length > 0),
  };
}

export function meetsFloor(evaluation: CorpusEvaluation): boolean {
  return evaluation.blockRate >= BLOCK_RATE_FLOOR && evaluation.falsePositiveRate <= FALSE_POSITIVE_CEILING;
}

function score(text: string, group: string, language: string): ScoredEntry {
  const result = sanitizeInput(text);
  return { text, group, language, blocked: result.blocked, findings: result.findings };
}

function tally(entries: ScoredEntry[]): Tally {
  return { blocked: entries.filter((entry) => entry.blocked).length, total: entries.length };
}

function ratio({ blocked, total }: Tally): number {
  return total === 0 ? 0 : blocked / total;
}

function groupTally(entries: ScoredEntry[], key: (entry: ScoredEntry) => string): Map<string, Tally> {
  const groups = new Map<string, Tally>();
  for (const entry of entries) {
    const current = groups.get(key(entry)) ?? { blocked: 0, total: 0 };
    current.total++;
    if (entry.blocked) current.blocked++;
    groups.set(key(entry), current);
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}
