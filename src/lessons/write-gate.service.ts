import { Injectable } from '@nestjs/common';

import { AgentsService } from '../agents/agents.service';
import type { MemoryScope } from '../common/scope/memory-scope';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { injectionLesson, trustLesson, type WriteContext } from './lesson-patterns';
import type { NewLesson } from './lesson.types';
import { LessonsService } from './lessons.service';
import { sanitizeInput } from './sanitizer/sanitize-input';
import { sourceTrust } from './trust';

export type GateVerdict =
  | { accepted: true; trustScore: number }
  | { accepted: false; reason: 'injection' | 'low_trust'; trustScore: number };

/**
 * The write-security gate, run on every write path (ingest, ingest/quick, verbatim writes;
 * user and workspace scope) while `trust_scoring_enabled` is on. Each fact is sanitized and
 * given a trust score (the source's, and in a workspace the lower of that and the writing
 * agent's level). Blocked or low-trust facts are rejected, and each rejection is recorded as
 * a lesson for the user.
 */
@Injectable()
export class WriteGateService {
  constructor(
    private readonly settings: SettingsService,
    private readonly agents: AgentsService,
    private readonly lessons: LessonsService,
    private readonly metrics: MetricsService,
  ) {}

  async screen(scope: MemoryScope, sourceSite: string, facts: readonly string[]): Promise<GateVerdict[]> {
    const config = this.settings.current();
    if (!config.trustScoringEnabled) return facts.map(() => ({ accepted: true, trustScore: 1 }));

    const agentTrust = scope.kind === 'workspace' ? await this.agents.trustLevel(scope.userId, scope.agentId) : null;
    const ctx: WriteContext = {
      userId: scope.userId,
      sourceSite,
      ...(scope.kind === 'workspace' ? { workspaceId: scope.workspaceId, agentId: scope.agentId } : {}),
    };
    const toRecord: NewLesson[] = [];
    const verdicts = facts.map((fact): GateVerdict => {
      const sanitized = sanitizeInput(fact);
      if (sanitized.blocked) {
        toRecord.push(injectionLesson(ctx, fact, sanitized.findings));
        return { accepted: false, reason: 'injection', trustScore: 0 };
      }
      const source = sourceTrust(sourceSite, sanitized, config.trustedSourceSites);
      const score = agentTrust === null ? source : Math.min(source, agentTrust);
      if (score < config.trustScoreMinThreshold) {
        toRecord.push(trustLesson(ctx, fact, { score, source, agent: agentTrust, threshold: config.trustScoreMinThreshold }));
        return { accepted: false, reason: 'low_trust', trustScore: score };
      }
      return { accepted: true, trustScore: score };
    });
    for (const verdict of verdicts) if (!verdict.accepted) this.metrics.writesRejected.inc({ reason: verdict.reason });
    await this.lessons.record(toRecord);
    return verdicts;
  }

  /** Whether a whole text is safe to hand to the LLM (no recording: the per-fact pass records). */
  isSafeForModel(text: string): boolean {
    return !this.settings.current().trustScoringEnabled || !sanitizeInput(text).blocked;
  }
}
