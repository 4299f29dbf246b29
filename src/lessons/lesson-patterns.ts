import { assertNever } from '../common/errors/domain-error';
import type { GateFinding } from './classifier/assess-input';
import type { LessonSeverity, NewLesson } from './lesson.types';

/** CONTRACT section 6: a pattern holds at most 200 characters of the content, plus the reason. */
export const PATTERN_CONTENT_CHARS = 200;
export const CONTRADICTION_CONFIDENCE_THRESHOLD = 0.8;
export const HIGH_SEVERITY_TRUST = 0.1;
export const CRITICAL_INJECTION_FINDINGS = 3;

const extract = (content: string): string => content.replace(/\s+/g, ' ').trim().slice(0, PATTERN_CONTENT_CHARS);

export interface WriteContext {
  userId: string;
  sourceSite: string;
  workspaceId?: string;
  agentId?: string;
}

const where = (ctx: WriteContext) => ({
  sourceSite: ctx.sourceSite,
  ...(ctx.workspaceId ? { workspaceId: ctx.workspaceId, agentId: ctx.agentId } : {}),
});

/** Spec 2.5: `high` for 1-2 block findings, `critical` for 3 or more. */
export function injectionSeverity(blockFindings: number): LessonSeverity {
  return blockFindings >= CRITICAL_INJECTION_FINDINGS ? 'critical' : 'high';
}

/** Spec 2.5: `medium` below the threshold, `high` below 0.1. */
export function trustSeverity(trustScore: number): LessonSeverity {
  return trustScore < HIGH_SEVERITY_TRUST ? 'high' : 'medium';
}

/**
 * One lesson for one blocked input: severity counts the block findings of the whole input
 * (each rule once, the classifier once per sentence it flagged that no rule explains), and the
 * metadata says which said what (`source` rule or classifier, with the classifier's score).
 */
export function injectionLesson(ctx: WriteContext, content: string, findings: readonly GateFinding[]): NewLesson {
  const blocking = findings.filter((f) => f.severity === 'block');
  const rules = blocking.map((f) => f.ruleId);
  const text = extract(content);
  return {
    userId: ctx.userId,
    lessonType: 'injection_blocked',
    pattern: `${text} [blocked prompt injection: ${rules.join(', ')}]`,
    embedText: text,
    sourceMemoryIds: [],
    sourceQuery: null,
    severity: injectionSeverity(blocking.length),
    metadata: { rules, findings: findings.map(describeFinding), ...where(ctx) },
  };
}

function describeFinding(finding: GateFinding): Record<string, unknown> {
  switch (finding.source) {
    case 'rule':
      return { ruleId: finding.ruleId, severity: finding.severity, source: 'rule' };
    case 'classifier':
      return {
        ruleId: finding.ruleId,
        severity: finding.severity,
        source: 'classifier',
        score: finding.score,
        threshold: finding.threshold,
      };
    default:
      return assertNever(finding);
  }
}

export function trustLesson(
  ctx: WriteContext,
  content: string,
  trust: { score: number; source: number; agent: number | null; threshold: number },
): NewLesson {
  const text = extract(content);
  return {
    userId: ctx.userId,
    lessonType: 'trust_violation',
    pattern: `${text} [trust ${trust.score.toFixed(2)} below ${trust.threshold.toFixed(2)}]`,
    embedText: text,
    sourceMemoryIds: [],
    sourceQuery: null,
    severity: trustSeverity(trust.score),
    metadata: {
      trustScore: trust.score,
      sourceTrust: trust.source,
      agentTrust: trust.agent,
      threshold: trust.threshold,
      ...where(ctx),
    },
  };
}

export function contradictionLesson(
  ctx: WriteContext,
  content: string,
  decision: { action: 'SUPERSEDE' | 'DELETE'; targetId: string; confidence: number },
): NewLesson {
  const text = extract(content);
  return {
    userId: ctx.userId,
    lessonType: 'contradiction_pattern',
    pattern: `${text} [${decision.action} of ${decision.targetId} at confidence ${decision.confidence.toFixed(2)}]`,
    embedText: text,
    sourceMemoryIds: [decision.targetId],
    sourceQuery: null,
    severity: 'medium',
    metadata: { contradictionConfidence: decision.confidence, action: decision.action, affectedMemoryId: decision.targetId, ...where(ctx) },
  };
}
