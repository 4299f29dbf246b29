import { Injectable, Logger } from '@nestjs/common';

import { DomainError } from '../common/errors/domain-error';
import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import type { LessonEntity } from '../database/entities/lesson.entity';
import { EmbeddingService } from '../embeddings/embedding.service';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsService } from '../settings/settings.service';
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
          metadata: { reportedBy: 'user' },
        },
      ],
      actor,
    );
    return { lesson_id: id ?? null };
  }

  async list(userId: string): Promise<{ lessons: LessonRecord[]; count: number }> {
    if (!this.enabled) return { lessons: [], count: 0 };
    const lessons = (await this.repository.listActive(userId)).map(toRecord);
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

  /** The response block for the lessons a check matched (closest first). */
  summarize(matches: readonly LessonMatch[]): LessonCheck {
    let highest: LessonSeverity | 'none' = 'none';
    for (const m of matches) if (severityRank(m.severity) > severityRank(highest)) highest = m.severity;
    return {
      safe: !matches.some((m) => m.severity === 'critical'),
      warnings: matches.map((m) => `[${m.severity}] ${m.lesson_type}: ${m.pattern.slice(0, 100)} (similarity: ${m.similarity.toFixed(2)})`),
      highest_severity: highest,
      matched_count: matches.length,
    };
  }
}
