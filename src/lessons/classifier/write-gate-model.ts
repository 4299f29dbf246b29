import { sanitizeInput } from '../sanitizer/sanitize-input';
import type { SanitizerResult } from '../sanitizer/sanitizer.types';
import { CLASSIFIER_RULE_ID, type GateFinding, type Judged } from './assess-input';
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
