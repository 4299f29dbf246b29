import { Injectable } from '@nestjs/common';

import { AgentsService } from '../agents/agents.service';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { inSpan, inSpanSync } from '../common/telemetry/tracing';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { assessInput, factIsBlocked, type GateFinding, type InputAssessment } from './classifier/assess-input';
import { factJudgement, judgeText, shippedModel } from './classifier/write-gate-model';
import { injectionLesson, trustLesson, type WriteContext } from './lesson-patterns';
import type { NewLesson } from './lesson.types';
import { LessonsService } from './lessons.service';
import { sourceTrust } from './trust';

export type GateVerdict =
  { accepted: true; trustScore: number } | { accepted: false; reason: 'injection' | 'low_trust'; trustScore: number };

/**
 * The write-security gate, run on every write path (ingest, ingest/quick, verbatim writes;
 * user and workspace scope) while `trust_scoring_enabled` is on.
 *
 * The whole input is assessed first (`assess`, before extraction and before any LLM sees it):
 * rules and classifier over each sentence and the whole text. A fact from a blocked sentence,
 * or from a sentence continuing the blocked instruction, is rejected, and the input gets one
 * `injection_blocked` lesson whose severity counts the block findings of the whole input.
 * Every fact is then judged on its own as well (LLM facts are paraphrases the input assessment
 * cannot place) and given a trust score: the source's, and in a workspace the lower of that
 * and the writing agent's level. Rejections are recorded as lessons for the user.
 */
@Injectable()
export class WriteGateService {
  constructor(
    private readonly settings: SettingsService,
    private readonly agents: AgentsService,
    private readonly lessons: LessonsService,
    private readonly metrics: MetricsService,
  ) {}

  /** The whole raw input judged before extraction; null while trust scoring is off. */
  assess(text: string): InputAssessment | null {
    if (!this.settings.current().trustScoringEnabled) return null;
    return inSpanSync(
      'atrium.write_gate.assess',
      () => ({ 'atrium.write_gate.input_chars': text.length }),
      (span) => {
        const assessment = assessInput(text, shippedModel());
        span.setAttribute('atrium.write_gate.blocked', assessment.blocked);
        return assessment;
      },
    );
  }

  /** The per-fact verdicts, in an `atrium.write_gate` span (counts only, never the text). */
  screen(
    scope: MemoryScope,
    sourceSite: string,
    facts: readonly string[],
    input: InputAssessment | null,
    actor: Actor,
  ): Promise<GateVerdict[]> {
    return inSpan(
      'atrium.write_gate',
      () => ({ 'atrium.write_gate.facts': facts.length }),
      async (span) => {
        const verdicts = await this.judge(scope, sourceSite, facts, input, actor);
        span.setAttribute('atrium.write_gate.accepted', verdicts.filter((v) => v.accepted).length);
        return verdicts;
      },
    );
  }

  private async judge(
    scope: MemoryScope,
    sourceSite: string,
    facts: readonly string[],
    input: InputAssessment | null,
    actor: Actor,
  ): Promise<GateVerdict[]> {
    const config = this.settings.current();
    if (!config.trustScoringEnabled || input === null) return facts.map(() => ({ accepted: true, trustScore: 1 }));

    const agentTrust = scope.kind === 'workspace' ? await this.agents.trustLevel(scope.userId, scope.agentId) : null;
    const ctx: WriteContext = {
      userId: scope.userId,
      sourceSite,
      ...(scope.kind === 'workspace' ? { workspaceId: scope.workspaceId, agentId: scope.agentId } : {}),
    };
    const toRecord: NewLesson[] = [];
    const inputFindings: GateFinding[] = [...input.findings];
    const verdicts = facts.map((fact): GateVerdict => {
      if (factIsBlocked(input, fact)) return { accepted: false, reason: 'injection', trustScore: 0 };
      // A verbatim fact (skip_extraction) is the input the assessment already judged whole.
      const judged = fact === input.whole.text ? factJudgement(input.whole) : judgeText(fact);
      if (judged.blocked) {
        // One lesson per input: a blocked input's lesson takes this fact's findings too.
        if (input.blocked)
          inputFindings.push(
            ...judged.findings.filter((f) => !inputFindings.some((known) => known.ruleId === f.ruleId && f.source === 'rule')),
          );
        else toRecord.push(injectionLesson(ctx, fact, judged.findings));
        return { accepted: false, reason: 'injection', trustScore: 0 };
      }
      const source = sourceTrust(sourceSite, judged.sanitized, config.trustedSourceSites);
      const score = agentTrust === null ? source : Math.min(source, agentTrust);
      if (score < config.trustScoreMinThreshold) {
        toRecord.push(trustLesson(ctx, fact, { score, source, agent: agentTrust, threshold: config.trustScoreMinThreshold }));
        return { accepted: false, reason: 'low_trust', trustScore: score };
      }
      return { accepted: true, trustScore: score };
    });
    if (input.blocked) {
      const attack = input.segments
        .filter((segment) => segment.blocked)
        .map((segment) => segment.flat)
        .join(' ');
      toRecord.unshift(injectionLesson(ctx, attack, inputFindings));
    }
    for (const verdict of verdicts) if (!verdict.accepted) this.metrics.writesRejected.inc({ reason: verdict.reason });
    await this.lessons.record(toRecord, actor);
    return verdicts;
  }
}
