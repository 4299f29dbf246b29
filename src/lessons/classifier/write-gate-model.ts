import { sanitizeInput } from '../sanitizer/sanitize-input';
import type { SanitizerResult } from '../sanitizer/sanitizer.types';
import { CLASSIFIER_RULE_ID, isInBlockedSentence, type GateFinding, type InputContext, type Judged } from './assess-input';
import { classifierScore, loadModel, type GateModel, type StoredGateModel } from './gate-model';
import stored from './gate-model.json';

/** The shipped classifier (written by `npm run train:gate`), decoded once when first used. */
let model: GateModel | null = null;
export function shippedModel(): GateModel {
  model ??= loadModel(stored as StoredGateModel);
  return model;
}

export interface FactJudgement {
  sanitized: SanitizerResult;
  blocked: boolean;
  /** Rule findings, and the classifier's when it flagged the text. */
  findings: GateFinding[];
}

/** One text (an extracted fact) through the rules and the classifier. */
export function judgeText(text: string, gate: GateModel = shippedModel()): FactJudgement {
  const sanitized = sanitizeInput(text);
  return factJudgement({ sanitized, score: classifierScore(gate, sanitized) }, gate);
}

/** The judgement of a text from its sanitizer result and classifier score (judgeText's last step). */
export function factJudgement({ sanitized, score }: Judged, gate: GateModel = shippedModel()): FactJudgement {
  const findings: GateFinding[] = sanitized.findings.map((finding) => ({ ...finding, source: 'rule' as const }));
  const flagged = score >= gate.threshold;
  if (flagged && !sanitized.blocked) {
    findings.push({
      source: 'classifier',
      ruleId: CLASSIFIER_RULE_ID,
      category: 'classifier',
      severity: 'block',
      excerpt: sanitized.normalized.slice(0, 80),
      score: Math.round(score * 1000) / 1000,
      threshold: Math.round(gate.threshold * 1000) / 1000,
    });
  }
  return { sanitized, blocked: sanitized.blocked || flagged, findings };
}

/**
 * Each fact's basis for a verdict: the input itself (judged whole by the assessment), from a
 * blocked sentence (rejected without more work), or its own judgement by the rules and the
 * classifier. The CPU part of the per-fact gate, run inline or on a worker (src/workers).
 */
export type FactBasis = { kind: 'whole' } | { kind: 'blocked-sentence' } | { kind: 'judged'; judgement: FactJudgement };

export function judgeFacts(facts: readonly string[], input: InputContext, model: GateModel = shippedModel()): FactBasis[] {
  return facts.map((fact): FactBasis => {
    if (isInBlockedSentence(input.blocked, fact)) return { kind: 'blocked-sentence' };
    if (fact === input.whole) return { kind: 'whole' };
    return { kind: 'judged', judgement: judgeText(fact, model) };
  });
}
