import { Injectable, Logger } from '@nestjs/common';

import { assertNever, DomainError } from '../common/errors/domain-error';
import type { Actor, Principal } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import type { LessonEntity } from '../database/entities/lesson.entity';
import { EmbeddingService } from '../embeddings/embedding.service';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
import { mayReadLessonText, producerOf, rulesOf, WITHHELD_PATTERN } from './lesson-readers';
import { LESSON_TYPES, severityRank, type LessonCheck, type LessonSeverity, type NewLesson } from './lesson.types';
import { lessonMaxDistance, LessonsRepository, type LessonGate, type LessonMatch } from './lessons.repository';

/** Spec 4.7: at most three matches are used. */
export const LESSON_MATCH_LIMIT = 3;

export interface LessonRecord {
  id: string;
  user_id: string;
  lesson_type: string;
  pattern: string;
  embedding: number[];
  source_memory_ids: string[];
  source_query: string | null;
  severity: string;
  active: boolean;
  metadata: Record<string, unknown>;
  created_at: string;
}

const toRecord = (l: LessonEntity): LessonRecord => ({
  id: l.id,
  user_id: l.userId,
  lesson_type: l.lessonType,
  pattern: l.pattern,
  embedding: typeof l.embedding === 'string' ? (JSON.parse(l.embedding) as number[]) : l.embedding,
  source_memory_ids: l.sourceMemoryIds ?? [],
  source_query: l.sourceQuery,
  severity: l.severity,
  active: l.active,
  metadata: l.metadata ?? {},
  created_at: new Date(l.createdAt).toISOString(),
});

/**
 * A lesson as `principal` may see it: whole for its readers (lesson-readers.ts); for any other
 * agent the type, severity, id, source ids and rules, with the text, its embedding, the query
 * and the rest of the metadata withheld (`metadata.withheld: true`).
 */
function asSeenBy(record: LessonRecord, principal: Principal): LessonRecord {
  if (mayReadLessonText(principal, producerOf(record.metadata))) return record;
  const rules = rulesOf(record.metadata);
  return {
    ...record,
    pattern: WITHHELD_PATTERN,
    embedding: [],
    source_query: null,
    metadata: { withheld: true, ...(rules.length > 0 ? { rules } : {}) },
  };
}

/** One warning of the lesson check (CONTRACT section 6); a withheld text names the lesson id and rules instead. */
function warningOf(match: LessonMatch, principal: Principal): string {
  const similarity = `(similarity: ${match.similarity.toFixed(2)})`;
  if (mayReadLessonText(principal, { agentId: match.agent_id, workspaceId: match.workspace_id })) {
    return `[${match.severity}] ${match.lesson_type}: ${match.pattern.slice(0, 100)} ${similarity}`;
  }
  const rules = match.rules && match.rules.length > 0 ? `, rules: ${match.rules.join(', ')}` : '';
  return `[${match.severity}] ${match.lesson_type}: (withheld; lesson ${match.id}${rules}) ${similarity}`;
}

/**
 * Who reported a lesson, as its metadata records it: `reportedBy` is `user` (a user key, or
 * AUTH_MODE=off, where the caller is believed to be the user), `service` (a gateway's key) or
 * the reporting agent's id, and an agent's report names its workspace and agent like a lesson
 * its write produced (so that agent, and no other, reads its text: lesson-readers.ts).
 */
function reporterOf(principal: Principal): Record<string, string> {
  switch (principal.kind) {
    case 'open':
    case 'user':
      return { reportedBy: 'user' };
    case 'service':
      return { reportedBy: 'service' };
    case 'agent':
      return { reportedBy: principal.agentId, workspaceId: principal.workspaceId, agentId: principal.agentId };
    default:
      return assertNever(principal);
  }
}

/**
 * The lessons subsystem: recording, the four routes, and the check before every search.
 * Everything is a no-op while `lessons_enabled` is off (env or runtime config): no rows are
 * written, the routes answer empty data, searches carry no lesson_check.
 */
@Injectable()
export class LessonsService {
  private readonly logger = new Logger('Lessons');

  constructor(
    private readonly repository: LessonsRepository,
    private readonly embeddings: EmbeddingService,
    private readonly settings: SettingsService,
    private readonly metrics: MetricsService,
  ) {}

  get enabled(): boolean {
    return this.settings.current().lessonsEnabled;
  }

  /** Store lessons (one embedding batch). Returns their ids, or [] while lessons are off. */
  async record(lessons: NewLesson[], actor: Actor): Promise<string[]> {
    if (!this.enabled || lessons.length === 0) return [];
    const vectors = await this.embeddings.embedDocuments(lessons.map((l) => l.embedText));
    const ids: string[] = [];
    for (let i = 0; i < lessons.length; i++) {
      ids.push(await this.repository.insert(lessons[i], vectors[i], this.embeddings.identity, actor));
      this.metrics.lessonsRecorded.inc({ type: lessons[i].lessonType });
    }
    this.logger.log({ msg: 'lessons recorded', types: lessons.map((l) => l.lessonType), count: ids.length });
    return ids;
  }

  async report(
    userId: string,
    input: { pattern: string; sourceMemoryIds: string[]; severity?: LessonSeverity },
    principal: Principal,
    actor: Actor,
  ): Promise<{ lesson_id: string | null }> {
    if (!this.enabled) return { lesson_id: null };
    const [id] = await this.record(
      [
        {
          userId,
          lessonType: 'user_reported',
          pattern: input.pattern,
          embedText: input.pattern,
          sourceMemoryIds: input.sourceMemoryIds,
          sourceQuery: null,
          severity: input.severity ?? 'high',
          metadata: reporterOf(principal),
        },
      ],
      actor,
    );
    return { lesson_id: id ?? null };
  }

  async list(userId: string, principal: Principal): Promise<{ lessons: LessonRecord[]; count: number }> {
    if (!this.enabled) return { lessons: [], count: 0 };
    const lessons = (await this.repository.listActive(userId)).map((lesson) => asSeenBy(toRecord(lesson), principal));
    return { lessons, count: lessons.length };
  }

  async stats(userId: string): Promise<{ total_active: number; by_type: Record<string, number> }> {
    if (!this.enabled) return { total_active: 0, by_type: {} };
    const byType: Record<string, number> = Object.fromEntries(LESSON_TYPES.map((t) => [t, 0]));
    let total = 0;
    for (const row of await this.repository.countsByType(userId)) {
      byType[row.lesson_type] = Number(row.n);
      total += Number(row.n);
    }
    return { total_active: total, by_type: byType };
  }

  async retire(userId: string, id: string, actor: Actor): Promise<{ success: boolean }> {
    if (!this.enabled) return { success: false };
    if (!(await this.repository.retire(userId, id, actor))) throw new DomainError('LESSON_NOT_FOUND');
    return { success: true };
  }

  /**
   * The check as part of a search statement (search/fast runs it in the statement that
   * retrieves): the largest cosine distance that matches and how many matches count. Null
   * while lessons are off.
   */
  gate(): LessonGate | null {
    if (!this.enabled) return null;
    return { maxDistance: lessonMaxDistance(this.settings.current().lessonSimilarityThreshold), limit: LESSON_MATCH_LIMIT };
  }

  /**
   * A search failed closed on `matches`: the `lesson.matched` webhook event (lesson ids and
   * severity). A failure to write it is logged, never the search's failure.
   */
  async failedClosed(scope: MemoryScope, matches: readonly LessonMatch[], highest: string): Promise<void> {
    try {
      await this.repository.failedClosed(
        scope,
        matches.map((m) => m.id),
        highest,
      );
    } catch (error) {
      this.logger.warn(`lesson.matched event not written: ${(error as Error).message}`);
    }
  }

  /** The response block for the lessons a check matched (closest first), as `principal` may read them. */
  summarize(matches: readonly LessonMatch[], principal: Principal): LessonCheck {
    let highest: LessonSeverity | 'none' = 'none';
    for (const m of matches) if (severityRank(m.severity) > severityRank(highest)) highest = m.severity;
    return {
      safe: !matches.some((m) => m.severity === 'critical'),
      warnings: matches.map((m) => warningOf(m, principal)),
      highest_severity: highest,
      matched_count: matches.length,
    };
  }
}
