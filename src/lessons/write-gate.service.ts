import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import { AgentsService } from '../agents/agents.service';
import { DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { inSpan } from '../common/telemetry/tracing';
import type { AppConfig } from '../env/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { assessInput, factIsBlocked, type GateFinding, type InputAssessment } from './classifier/assess-input';
import { factJudgement, judgeText, shippedModel, type FactJudgement } from './classifier/write-gate-model';
import { GateBudgetExceededError, GatePool } from './gate-pool/gate-pool';
import type { GateResult, GateTask } from './gate-pool/gate-tasks';
import { injectionLesson, trustLesson, type WriteContext } from './lesson-patterns';
import type { NewLesson } from './lesson.types';
import { LessonsService } from './lessons.service';
import { sourceTrust } from './trust';

/**
 * Texts up to this long are judged on the event loop: the linear gate takes a millisecond or two
 * on them, about what handing them to a worker and back costs.
 */
export const INLINE_MAX_CHARS = 2_000;

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
export class WriteGateService implements OnApplicationShutdown {
  private readonly pool: GatePool;

  constructor(
    private readonly settings: SettingsService,
    private readonly agents: AgentsService,
    private readonly lessons: LessonsService,
    private readonly metrics: MetricsService,
    @Inject(ConfigService) config: AppConfig,
  ) {
    this.pool = new GatePool({
      workers: config.get('WRITE_GATE_WORKERS', { infer: true }),
      budgetMs: config.get('WRITE_GATE_BUDGET_MS', { infer: true }),
    });
  }

  /** The whole raw input judged before extraction; null while trust scoring is off. */
  async assess(text: string): Promise<InputAssessment | null> {
    if (!this.settings.current().trustScoringEnabled) return null;
    return inSpan(
      'atrium.write_gate.assess',
      () => ({ 'atrium.write_gate.input_chars': text.length }),
      async (span) => {
        const assessment =
          text.length <= INLINE_MAX_CHARS ? assessInput(text, shippedModel()) : await this.offload({ kind: 'assess', text });
        span.setAttribute('atrium.write_gate.blocked', assessment.blocked);
        return assessment;
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }

  /** Facts judged one by one: inline while short together, else in the pool. */
  private async judgeAll(texts: string[]): Promise<FactJudgement[]> {
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    if (total <= INLINE_MAX_CHARS) return texts.map((text) => judgeText(text));
    return this.offload({ kind: 'judge', texts });
  }

  private async offload<T extends GateTask>(task: T): Promise<GateResult<T>> {
    try {
      return await this.pool.run(task);
    } catch (error) {
      if (!(error instanceof GateBudgetExceededError)) throw error;
      this.metrics.gateBudgetExceeded.inc();
      throw new DomainError('GATE_BUDGET_EXCEEDED');
    }
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
    const toJudge = facts.filter((fact) => !factIsBlocked(input, fact) && fact !== input.whole.text);
    const judgements = await this.judgeAll(toJudge);
    const judgedFacts = new Map(toJudge.map((fact, i) => [fact, judgements[i]]));
    const verdicts = facts.map((fact): GateVerdict => {
      if (factIsBlocked(input, fact)) return { accepted: false, reason: 'injection', trustScore: 0 };
      const judged = fact === input.whole.text ? factJudgement(input.whole) : judgedFacts.get(fact);
      if (judged === undefined) return { accepted: false, reason: 'injection', trustScore: 0 };
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
