import { sanitizeInput } from '../sanitizer/sanitize-input';
import type { GateCorpusEntry } from './gate-corpus';
import { dot, featurize, sigmoid, type SparseVector } from './hashed-features';
import { inputSegments } from './input-segments';
import { DEFAULT_TRAINING, trainLogistic, type LinearModel, type TrainingOptions } from './logistic-regression';

/**
 * Training and honest evaluation of the write gate on the labelled corpus, shared by
 * `npm run train:gate`, `npm run eval:poisoning` and the floor test. Folds are built from
 * groups (a template's variants, or one hand-written entry), stratified by label and family,
 * so no surface form is both trained on and scored.
 */

/** Floors of the issue; CI fails below them. */
export const CV_BLOCK_FLOOR = 0.95;
export const CV_FALSE_POSITIVE_CEILING = 0.01;
export const LOFO_BLOCK_FLOOR = 0.8;
/** The threshold aims a little under the 1% ceiling: it is chosen on other data than it is used on. */
export const THRESHOLD_FALSE_POSITIVE_TARGET = 0.01;
/** Sentences after a blocked one continue it at this false-positive level of the training scores. */
export const CONTINUATION_FALSE_POSITIVE_TARGET = 0.05;
export const OUTER_FOLDS = 5;
export const INNER_FOLDS = 3;

/** An entry with everything the evaluation needs precomputed: label, rule verdict, feature vectors. */
export interface PreparedEntry {
  entry: GateCorpusEntry;
  positive: boolean;
  /** Rules alone block it (any sentence, or the whole input). */
  rulesBlocked: boolean;
  /** The whole entry, as trained on. */
  whole: SparseVector;
  /** Every unit the gate scores: each sentence and the whole input. */
  units: SparseVector[];
}

export function prepare(entries: readonly GateCorpusEntry[]): PreparedEntry[] {
  return entries.map((entry) => {
    const pieces = inputSegments(entry.text);
    const wholeResult = sanitizeInput(entry.text);
    const whole = featurize(wholeResult.normalized, wholeResult.findings);
    let rulesBlocked = wholeResult.blocked;
    const units = [whole];
    if (pieces.length > 1) {
      for (const piece of pieces) {
        const result = sanitizeInput(piece);
        rulesBlocked ||= result.blocked;
        units.push(featurize(result.normalized, result.findings));
      }
    }
    return { entry, positive: entry.label === 'adversarial', rulesBlocked, whole, units };
  });
}

export const maxScore = (model: LinearModel, prepared: PreparedEntry): number => {
  let best = 0;
  for (const unit of prepared.units) best = Math.max(best, sigmoid(dot(model.weights, unit) + model.bias));
  return best;
};

/** Sentences of a legitimate entry are legitimate too: the gate scores them one by one. */
const SENTENCES_PER_LEGITIMATE_ENTRY = 8;

/**
 * Trains on whole entries, plus up to eight sentences of each legitimate entry as further
 * negatives (an attack's sentences are not all attacks, so those are not used).
 */
export function train(entries: readonly PreparedEntry[], options: TrainingOptions = DEFAULT_TRAINING): LinearModel {
  const vectors: SparseVector[] = [];
  const labels: number[] = [];
  for (const p of entries) {
    vectors.push(p.whole);
    labels.push(p.positive ? 1 : 0);
    if (!p.positive) {
      for (const unit of p.units.slice(1, 1 + SENTENCES_PER_LEGITIMATE_ENTRY)) {
        vectors.push(unit);
        labels.push(0);
      }
    }
  }
  return trainLogistic(vectors, labels, options);
}

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fold number of each entry. Within each label/family, groups are shuffled (seeded) and dealt,
 * largest first, to the fold holding the fewest entries of that family so far.
 */
export function groupFolds(entries: readonly PreparedEntry[], folds: number, seed: number): number[] {
  const random = rng(seed);
  const byFamily = new Map<string, Map<string, number[]>>();
  entries.forEach((p, i) => {
    const family = `${p.entry.label}/${p.entry.family}`;
    const groups = byFamily.get(family) ?? new Map<string, number[]>();
    const members = groups.get(p.entry.group) ?? [];
    members.push(i);
    groups.set(p.entry.group, members);
    byFamily.set(family, groups);
  });
  const fold = new Array<number>(entries.length).fill(0);
  for (const family of [...byFamily.keys()].sort()) {
    const groups = [...byFamily.get(family)!.values()].map((members) => ({ members, key: random() }));
    groups.sort((a, b) => b.members.length - a.members.length || a.key - b.key);
    const sizes = new Array<number>(folds).fill(0);
    for (const { members } of groups) {
      let target = 0;
      for (let f = 1; f < folds; f++) if (sizes[f] < sizes[target]) target = f;
      sizes[target] += members.length;
      for (const i of members) fold[i] = target;
    }
  }
  return fold;
}

export interface Thresholds {
  threshold: number;
  continuationThreshold: number;
}

/**
 * The lowest threshold whose false positives on held-out training scores, together with the
 * rules' own false positives, stay within the target; the same for the continuation level.
 */
export function chooseThresholds(training: readonly PreparedEntry[], options: TrainingOptions, seed: number): Thresholds {
  const fold = groupFolds(training, INNER_FOLDS, seed + 1);
  const legitScores: number[] = [];
  let rulesFalsePositives = 0;
  let legitimate = 0;
  for (let f = 0; f < INNER_FOLDS; f++) {
    const model = train(
      training.filter((_p, i) => fold[i] !== f),
      options,
    );
    training.forEach((p, i) => {
      if (fold[i] !== f || p.positive) return;
      legitimate++;
      if (p.rulesBlocked) rulesFalsePositives++;
      else legitScores.push(maxScore(model, p));
    });
  }
  legitScores.sort((a, b) => b - a);
  const pick = (target: number): number => {
    const allowed = Math.max(0, Math.floor(target * legitimate) - rulesFalsePositives);
    // Strictly above the (allowed+1)-th highest legitimate score.
    const boundary = legitScores[allowed] ?? 0;
    return Math.min(0.999, boundary + 1e-6);
  };
  return { threshold: pick(THRESHOLD_FALSE_POSITIVE_TARGET), continuationThreshold: pick(CONTINUATION_FALSE_POSITIVE_TARGET) };
}

export interface Outcome {
  prepared: PreparedEntry;
  rulesBlocked: boolean;
  gateBlocked: boolean;
  score: number;
}

export interface Tally {
  blocked: number;
  total: number;
}

export interface Figures {
  attacks: Tally;
  legitimate: Tally;
  blockRate: number;
  falsePositiveRate: number;
  byFamily: Map<string, { rules: Tally; gate: Tally }>;
}

export function summarise(outcomes: readonly Outcome[], blocked: (o: Outcome) => boolean): Figures {
  const attacks = { blocked: 0, total: 0 };
  const legitimate = { blocked: 0, total: 0 };
  for (const o of outcomes) {
    const tally = o.prepared.positive ? attacks : legitimate;
    tally.total++;
    if (blocked(o)) tally.blocked++;
  }
  const byFamily = new Map<string, { rules: Tally; gate: Tally }>();
  for (const o of outcomes) {
    const key = `${o.prepared.entry.label}/${o.prepared.entry.family}`;
    const row = byFamily.get(key) ?? { rules: { blocked: 0, total: 0 }, gate: { blocked: 0, total: 0 } };
    row.rules.total++;
    row.gate.total++;
    if (o.rulesBlocked) row.rules.blocked++;
    if (o.gateBlocked) row.gate.blocked++;
    byFamily.set(key, row);
  }
  return {
    attacks,
    legitimate,
    blockRate: attacks.total ? attacks.blocked / attacks.total : 0,
    falsePositiveRate: legitimate.total ? legitimate.blocked / legitimate.total : 0,
    byFamily: new Map([...byFamily].sort(([a], [b]) => a.localeCompare(b))),
  };
}

function scoreWith(model: LinearModel, thresholds: Thresholds, p: PreparedEntry): Outcome {
  const score = maxScore(model, p);
  return { prepared: p, rulesBlocked: p.rulesBlocked, gateBlocked: p.rulesBlocked || score >= thresholds.threshold, score };
}

/** Stratified, grouped k-fold cross-validation: each entry scored by a model that never saw its group. */
export function crossValidate(
  prepared: readonly PreparedEntry[],
  options: TrainingOptions = DEFAULT_TRAINING,
): { outcomes: Outcome[]; thresholds: Thresholds[] } {
  const fold = groupFolds(prepared, OUTER_FOLDS, options.seed);
  const outcomes: Outcome[] = [];
  const thresholds: Thresholds[] = [];
  for (let f = 0; f < OUTER_FOLDS; f++) {
    const training = prepared.filter((_p, i) => fold[i] !== f);
    const chosen = chooseThresholds(training, options, options.seed + f);
    const model = train(training, options);
    thresholds.push(chosen);
    prepared.forEach((p, i) => {
      if (fold[i] === f) outcomes.push(scoreWith(model, chosen, p));
    });
  }
  return { outcomes, thresholds };
}

/** Leave one attack family out: train without any of its attacks, score them. */
export function leaveOneFamilyOut(prepared: readonly PreparedEntry[], options: TrainingOptions = DEFAULT_TRAINING): Map<string, Outcome[]> {
  const families = [...new Set(prepared.filter((p) => p.positive).map((p) => p.entry.family))].sort();
  const result = new Map<string, Outcome[]>();
  for (const family of families) {
    const held = (p: PreparedEntry) => p.positive && p.entry.family === family;
    const training = prepared.filter((p) => !held(p));
    const chosen = chooseThresholds(training, options, options.seed);
    const model = train(training, options);
    result.set(
      family,
      prepared.filter(held).map((p) => scoreWith(model, chosen, p)),
    );
  }
  return result;
}
