import { Injectable } from '@nestjs/common';

import { AgentsService } from '../agents/agents.service';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { inSpan } from '../common/telemetry/tracing';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { INLINE_MAX_CHARS } from '../workers/cpu-tasks';
import { CpuWork } from '../workers/cpu-work.service';
import { assessInput, inputContext, type GateFinding, type InputAssessment } from './classifier/assess-input';
import { gateTasks } from './classifier/gate-tasks';
import { factJudgement, judgeFacts, shippedModel, type FactBasis } from './classifier/write-gate-model';
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
 *
 * The CPU work (the assessment, and judging the facts) runs in a worker pool once the text is
 * longer than INLINE_MAX_CHARS, so the event loop never waits for it; an input that takes longer
 * than WRITE_GATE_BUDGET_MS there is refused (422 GATE_BUDGET_EXCEEDED) and counted
 * (docs/security.md, "Bounded time").
 */
@Injectable()
export class WriteGateService {
  constructor(
    private readonly settings: SettingsService,
    private readonly agents: AgentsService,
    private readonly lessons: LessonsService,
    private readonly metrics: MetricsService,
    private readonly cpu: CpuWork,
  ) {}

  /** The whole raw input judged before extraction; null while trust scoring is off. */
  async assess(text: string): Promise<InputAssessment | null> {
    if (!this.settings.current().trustScoringEnabled) return null;
    return inSpan(
      'atrium.write_gate.assess',
      () => ({ 'atrium.write_gate.input_chars': text.length }),
      async (span) => {
        const assessment = text.length <= INLINE_MAX_CHARS ? assessInput(text, shippedModel()) : await this.cpu.run(gateTasks.assess(text));
        span.setAttribute('atrium.write_gate.blocked', assessment.blocked);
        return assessment;
      },
    );
  }

  /**
   * Many whole inputs (an import batch: each record's text and provenance fields), each given
   * the assessment `assess` gives it. The short ones, which `assess` runs on the event loop one
   * by one, go to a worker together as one task once they pass INLINE_MAX_CHARS in total, so a
   * batch's gate runs beside the database work of the batch before it; the long ones go to the
   * pool one by one as in `assess`, each with its own budget. Equal texts are assessed once
   * (an assessment depends on the text alone). Nulls while trust scoring is off.
   */
  async assessMany(texts: readonly string[]): Promise<Array<InputAssessment | null>> {
    if (!this.settings.current().trustScoringEnabled) return texts.map(() => null);
    const unique = [...new Set(texts)];
    const short = unique.filter((text) => text.length <= INLINE_MAX_CHARS);
    const long = unique.filter((text) => text.length > INLINE_MAX_CHARS);
    return inSpan(
      'atrium.write_gate.assess',
      () => ({ 'atrium.write_gate.inputs': texts.length, 'atrium.write_gate.input_chars': unique.reduce((sum, t) => sum + t.length, 0) }),
      async (span) => {
        const shortChars = short.reduce((sum, text) => sum + text.length, 0);
        const [shortDone, longDone] = await Promise.all([
          shortChars <= INLINE_MAX_CHARS
            ? short.map((text) => assessInput(text, shippedModel()))
            : this.cpu.run(gateTasks.assessMany(short)),
          Promise.all(long.map((text) => this.cpu.run(gateTasks.assess(text)))),
        ]);
        const byText = new Map<string, InputAssessment>();
        short.forEach((text, i) => byText.set(text, shortDone[i]));
        long.forEach((text, i) => byText.set(text, longDone[i]));
        span.setAttribute('atrium.write_gate.blocked', [...byText.values()].filter((a) => a.blocked).length);
        return texts.map((text) => byText.get(text) as InputAssessment);
      },
    );
  }

  /**
   * Each fact's basis (from a blocked sentence, the input itself, or its own judgement): inline
   * while the facts are short together, else on a worker, where placing a long fact among the
   * blocked sentences costs as much as judging it.
   */
  private async judgeAll(facts: readonly string[], input: InputAssessment): Promise<FactBasis[]> {
    const total = facts.reduce((sum, text) => sum + text.length, 0);
    const context = inputContext(input);
    if (total <= INLINE_MAX_CHARS) return judgeFacts(facts, context);
    return this.cpu.run(gateTasks.judge(facts, context));
  }

  /** The per-fact verdicts, in an `atrium.write_gate` span (counts only, never the text). */
  screen(
    scope: MemoryScope,
    sourceSite: string,
    facts: readonly string[],
    input: InputAssessment | null,
    actor: Actor,
    /** False for a dry run (import's dry_run): the verdicts only, no lesson and no metric recorded. */
    record = true,
  ): Promise<GateVerdict[]> {
    return inSpan(
      'atrium.write_gate',
      () => ({ 'atrium.write_gate.facts': facts.length }),
      async (span) => {
        const verdicts = await this.judge(scope, sourceSite, facts, input, actor, record);
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
    record: boolean,
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
    // A verbatim fact (skip_extraction) is the input the assessment already judged whole.
    const bases = await this.judgeAll(facts, input);
    const verdicts = facts.map((fact, i): GateVerdict => {
      const basis = bases[i];
      if (basis.kind === 'blocked-sentence') return { accepted: false, reason: 'injection', trustScore: 0 };
      const judged = basis.kind === 'whole' ? factJudgement(input.whole) : basis.judgement;
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
    if (!record) return verdicts;
    for (const verdict of verdicts) if (!verdict.accepted) this.metrics.writesRejected.inc({ reason: verdict.reason });
    await this.lessons.record(toRecord, actor);
    return verdicts;
  }
}
