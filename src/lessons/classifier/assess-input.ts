import { excerptAround } from '../sanitizer/excerpt';
import { maxNormalizedLength } from '../sanitizer/normalize-text';
import { sanitizeInput } from '../sanitizer/sanitize-input';
import type { SanitizerFinding, SanitizerResult } from '../sanitizer/sanitizer.types';
import { classifierScore, type GateModel } from './gate-model';
import { flatten, inputSegments } from './input-segments';

/** A finding of the write gate: a sanitizer rule, or the classifier with its score. */
export type GateFinding =
  (SanitizerFinding & { source: 'rule' }) | (SanitizerFinding & { source: 'classifier'; score: number; threshold: number });

export const CLASSIFIER_RULE_ID = 'classifier:injection';

export interface SegmentVerdict {
  text: string;
  /** Flat form (whitespace collapsed), for matching extracted facts. */
  flat: string;
  blocked: boolean;
  /** Why: the sentence itself, the instruction it continues, or the whole input (spread-out attack). */
  reason: 'none' | 'self' | 'continuation' | 'whole-input';
}

export interface InputAssessment {
  blocked: boolean;
  segments: SegmentVerdict[];
  /** Every finding of the whole input: the rules once per rule id, the classifier once per flagged sentence. */
  findings: GateFinding[];
  /** Block findings of the whole input, the number lesson severity counts (CONTRACT section 6). */
  blockFindings: number;
  /**
   * The whole input through the rules and the classifier (the same computation as judging it
   * as a fact), so that a fact that is the input verbatim (skip_extraction) is not judged twice.
   * A one-sentence input's sentence takes this judgement too.
   */
  whole: { text: string } & Judged;
}

export interface Judged {
  sanitized: SanitizerResult;
  score: number;
}

const judge = (text: string, model: GateModel): Judged => {
  const sanitized = sanitizeInput(text);
  return { sanitized, score: classifierScore(model, sanitized) };
};

/**
 * Past this length (where the sanitizer's excessive-length anomaly starts) sentences are judged by
 * the classifier on a light normalisation only, and the rules run once over the whole input: it
 * keeps 100k-character inputs within the gate's time budget. A rule finding that no sentence
 * explains then blocks every sentence (the whole-input case below).
 */
export const LONG_INPUT_CHARS = 20_000;

const judgeLightly = (text: string, model: GateModel): Judged => {
  const sanitized: SanitizerResult = {
    blocked: false,
    findings: [],
    // Cut like the full normalisation cuts (the whole input is refused for it there).
    normalized: text.normalize('NFKC').slice(0, maxNormalizedLength(text.length)).toLowerCase().replace(/\s+/g, ' ').trim(),
  };
  return { sanitized, score: classifierScore(model, sanitized) };
};

/** Second person or a linking word at the start: a sentence that keeps talking to the model. */
const ADDRESSES_MODEL =
  /(?:^|[\s,;:])(?:you|your|yourself|tu|vous|du|dich|dir|sie|usted|voc[eê]|ты|тебе|你|あなた|너)(?=$|[\s,;:.!?'’])|^(?:and|then|also|after that|afterwards|remember|never|always|do not|don't)\b/iu;

function classifierFinding(text: string, score: number, threshold: number): GateFinding {
  const flat = flatten(text);
  return {
    source: 'classifier',
    ruleId: CLASSIFIER_RULE_ID,
    category: 'classifier',
    severity: 'block',
    excerpt: excerptAround(flat, 0, Math.min(flat.length, 80)),
    score: round(score),
    threshold: round(threshold),
  };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
const isBlock = (finding: SanitizerFinding): boolean => finding.severity === 'block';

/**
 * The write gate's view of one whole input, before anything is extracted from it. Each sentence
 * is judged by the rules and the classifier; so is the whole input (rules across sentences,
 * and the classifier on the whole). A blocked sentence blocks the sentences after it that
 * continue the instruction (they score above the continuation threshold or keep addressing the
 * model). When only the whole input is flagged, every sentence is blocked: the attack is spread.
 */
export function assessInput(text: string, model: GateModel): InputAssessment {
  const pieces = inputSegments(text);
  const judgeOne = text.length > LONG_INPUT_CHARS ? judgeLightly : judge;
  // The whole input is judged fully, always; when it is one sentence, that judgement is the
  // sentence's too (padding aside, the same text), so no input is judged twice (a long one
  // would be, lightly and fully).
  const whole = judge(text, model);
  const judged = pieces.length === 1 ? [whole] : pieces.map((piece) => judgeOne(piece, model));

  const segments: SegmentVerdict[] = pieces.map((piece, i) => ({
    text: piece,
    flat: flatten(piece),
    blocked: judged[i].sanitized.blocked || judged[i].score >= model.threshold,
    reason: judged[i].sanitized.blocked || judged[i].score >= model.threshold ? 'self' : 'none',
  }));
  for (let i = 1; i < segments.length; i++) {
    if (segments[i].blocked || !segments[i - 1].blocked) continue;
    if (judged[i].score >= model.continuationThreshold || ADDRESSES_MODEL.test(judged[i].sanitized.normalized)) {
      segments[i].blocked = true;
      segments[i].reason = 'continuation';
    }
  }
  const wholeFlagged = whole.sanitized.blocked || whole.score >= model.threshold;
  if (wholeFlagged && !segments.some((segment) => segment.blocked)) {
    for (const segment of segments) {
      segment.blocked = true;
      segment.reason = 'whole-input';
    }
  }

  const findings = collectFindings(pieces, judged, whole, model);
  return {
    blocked: segments.some((segment) => segment.blocked),
    segments,
    findings,
    blockFindings: findings.filter(isBlock).length,
    whole: { text, ...whole },
  };
}

/**
 * Rule findings once per rule id over the sentences and the whole input; a classifier finding
 * for each flagged sentence that no block rule explains (it is the same instruction seen
 * twice otherwise), or one for the whole input when no sentence was flagged on its own.
 */
function collectFindings(pieces: string[], judged: Judged[], whole: Judged, model: GateModel): GateFinding[] {
  const byRule = new Map<string, GateFinding>();
  const addRule = (finding: SanitizerFinding) => {
    const known = byRule.get(finding.ruleId);
    if (!known || (known.severity === 'warn' && finding.severity === 'block')) byRule.set(finding.ruleId, { ...finding, source: 'rule' });
  };
  const classifier: GateFinding[] = [];
  judged.forEach(({ sanitized, score }, i) => {
    sanitized.findings.forEach(addRule);
    if (score >= model.threshold && !sanitized.findings.some(isBlock))
      classifier.push(classifierFinding(pieces[i], score, model.threshold));
  });
  whole.sanitized.findings.forEach(addRule);
  const anySegmentFlagged = judged.some(({ sanitized, score }) => sanitized.blocked || score >= model.threshold);
  if (classifier.length === 0 && !anySegmentFlagged && whole.score >= model.threshold && !whole.sanitized.blocked) {
    classifier.push(classifierFinding(pieces.join(' '), whole.score, model.threshold));
  }
  return [...byRule.values(), ...classifier];
}

/** Whether an extracted fact comes from a blocked sentence (or holds one). */
export function factIsBlocked(assessment: InputAssessment, fact: string): boolean {
  return isInBlockedSentence(blockedSentences(assessment), fact);
}

/** What judging the facts needs of the input's assessment: small enough to send to a worker. */
export interface InputContext {
  /** The input verbatim: a fact equal to it was judged whole by the assessment. */
  whole: string;
  /** The flattened text of every blocked sentence. */
  blocked: string[];
}

export function inputContext(assessment: InputAssessment): InputContext {
  return { whole: assessment.whole.text, blocked: blockedSentences(assessment) };
}

const blockedSentences = (assessment: InputAssessment): string[] =>
  assessment.segments.filter((segment) => segment.blocked).map((segment) => segment.flat);

export function isInBlockedSentence(blocked: readonly string[], fact: string): boolean {
  if (blocked.length === 0) return false;
  const flat = flatten(fact);
  if (!flat) return false;
  return blocked.some((sentence) => sentence.includes(flat) || flat.includes(sentence));
}
