import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import type { Actor } from '../common/identity/principal';
import type { MemoryScope } from '../common/scope/memory-scope';
import { MemoryAccess } from '../database/access/memory-access';
import { LessonEntity } from '../database/entities/lesson.entity';
import { toVectorLiteral } from '../database/vector';
import type { LessonSeverity, LessonType, NewLesson } from './lesson.types';

export interface LessonMatch {
  id: string;
  lesson_type: LessonType;
  pattern: string;
  severity: LessonSeverity;
  similarity: number;
  /** The agent (and workspace) whose write or report produced it; null for the user's own (lesson-readers.ts). */
  agent_id: string | null;
  workspace_id: string | null;
  /** The write gate's rule ids, for injection lessons. */
  rules: string[] | null;
}

export type { LessonGate } from '../database/access/search-statement';

/**
 * The cosine distance at which a lesson matches a similarity threshold, with a hair of
 * tolerance so a similarity of exactly the threshold (float32 storage) still matches.
 */
export const lessonMaxDistance = (threshold: number): number => 1 - threshold + 1e-7;

/** The upsert clause of an automatic lesson (unique active pattern per user and type). */
const MERGE_REPEAT = `ON CONFLICT (user_id, lesson_type, md5(pattern)) WHERE active AND lesson_type <> 'user_reported'
  DO UPDATE SET
    metadata = lessons.metadata || jsonb_build_object(
      'occurrences', COALESCE((lessons.metadata->>'occurrences')::int, 1) + 1,
      'last_seen_at', to_jsonb(now())),
    source_memory_ids = (SELECT COALESCE(array_agg(DISTINCT x), '{}') FROM unnest(lessons.source_memory_ids || EXCLUDED.source_memory_ids) AS x),
    severity = CASE WHEN array_position(ARRAY['low','medium','high','critical'], EXCLUDED.severity)
                       > array_position(ARRAY['low','medium','high','critical'], lessons.severity)
                    THEN EXCLUDED.severity ELSE lessons.severity END`;

/**
 * Lessons are user-scoped: every statement goes through MemoryAccess, which binds the user as
 * `$1` (userQuery refuses SQL without `user_id = $1`) or as a builder condition.
 */
@Injectable()
export class LessonsRepository {
  constructor(private readonly access: MemoryAccess) {}

  /**
   * Store a lesson. An automatic lesson whose pattern is already active for the user is
   * counted on the existing row (occurrences, last_seen_at, the higher severity) instead.
   * Either way one audit event (`lesson.reported` or `lesson.recorded`) in the same transaction.
   */
  async insert(lesson: NewLesson, embedding: readonly number[], embeddedBy: string, actor: Actor): Promise<string> {
    const id = randomUUID();
    const params = [
      id,
      lesson.lessonType,
      lesson.pattern,
      toVectorLiteral(embedding),
      lesson.sourceMemoryIds,
      lesson.sourceQuery,
      lesson.severity,
      JSON.stringify({ ...lesson.metadata, occurrences: 1 }),
      embeddedBy,
    ];
    // Automatic lessons count repeats on the active row with the same pattern; user reports never merge.
    const merge = lesson.lessonType === 'user_reported' ? '' : MERGE_REPEAT;
    return this.access.transaction(async (tx) => {
      await tx.holdSubjects([lesson.userId]); // an erasure of the user under way finishes first
      const rows = await tx.userQuery<{ id: string }>(
        lesson.userId,
        `INSERT INTO lessons (user_id, id, lesson_type, pattern, embedding, source_memory_ids, source_query, severity, metadata, embedded_by)
         VALUES ($1, $2, $3, $4, CAST($5 AS vector), CAST($6 AS uuid[]), $7, $8, CAST($9 AS jsonb), $10)
         ${merge}
         RETURNING id`,
        params,
      );
      await tx.audit(actor, {
        action: lesson.lessonType === 'user_reported' ? 'lesson.reported' : 'lesson.recorded',
        userId: lesson.userId,
        workspaceId: typeof lesson.metadata.workspaceId === 'string' ? lesson.metadata.workspaceId : null,
        agentId: typeof lesson.metadata.agentId === 'string' ? lesson.metadata.agentId : null,
        targetId: rows[0].id,
        detail: { lesson_type: lesson.lessonType, severity: lesson.severity },
      });
      return rows[0].id;
    });
  }

  /** The `lesson.matched` webhook event of a search that failed closed. */
  async failedClosed(scope: MemoryScope, lessonIds: readonly string[], highestSeverity: string): Promise<void> {
    await this.access.lessonMatched(scope, lessonIds, highestSeverity);
  }

  async listActive(userId: string): Promise<LessonEntity[]> {
    return this.access.lessons(userId).andWhere('l.active').orderBy('l.created_at', 'DESC').addOrderBy('l.id', 'DESC').getMany();
  }

  async countsByType(userId: string): Promise<{ lesson_type: LessonType; n: number }[]> {
    return this.access.userQuery(
      userId,
      'SELECT lesson_type, count(*)::int AS n FROM lessons WHERE user_id = $1 AND active GROUP BY lesson_type',
    );
  }

  /** Retire (active = false), keeping the row for audit. False when no active lesson of the user has that id. */
  async retire(userId: string, id: string, actor: Actor): Promise<boolean> {
    return this.access.transaction(async (tx) => {
      const rows = await tx.userQuery<{ n: number }>(
        userId,
        `WITH retired AS (
           UPDATE lessons SET active = false, retired_at = now()
            WHERE user_id = $1 AND id = $2 AND active
            RETURNING 1)
         SELECT count(*)::int AS n FROM retired`,
        [id],
      );
      if (rows[0].n === 0) return false;
      await tx.audit(actor, { action: 'lesson.retired', userId, targetId: id });
      return true;
    });
  }

  /** The user's active lessons within `threshold` cosine similarity of the vector, closest first. */
  async matchActive(userId: string, embedding: readonly number[], threshold: number, limit: number): Promise<LessonMatch[]> {
    const rows = await this.access.userQuery<LessonMatch>(
      userId,
      `SELECT id, lesson_type, pattern, severity, 1 - (embedding <=> CAST($2 AS vector)) AS similarity,
              metadata->>'agentId' AS agent_id, metadata->>'workspaceId' AS workspace_id,
              CASE WHEN jsonb_typeof(metadata->'rules') = 'array' THEN metadata->'rules' END AS rules
         FROM lessons
        WHERE user_id = $1 AND active AND (embedding <=> CAST($2 AS vector)) <= $3
        ORDER BY embedding <=> CAST($2 AS vector), id
        LIMIT $4`,
      [toVectorLiteral(embedding), lessonMaxDistance(threshold), limit],
    );
    return rows.map((r) => ({ ...r, similarity: Number(r.similarity) }));
  }
}
