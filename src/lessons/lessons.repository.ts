import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { toVectorLiteral } from '../database/vector';
import { LessonEntity } from './lesson.entity';
import type { LessonSeverity, LessonType, NewLesson } from './lesson.types';

export interface LessonMatch {
  id: string;
  lesson_type: LessonType;
  pattern: string;
  severity: LessonSeverity;
  similarity: number;
}

/** Lessons are user-scoped: every statement filters by user_id first. */
@Injectable()
export class LessonsRepository {
  constructor(@InjectRepository(LessonEntity) private readonly lessons: Repository<LessonEntity>) {}

  /**
   * Store a lesson. An automatic lesson whose pattern is already active for the user is
   * counted on the existing row (occurrences, last_seen_at, the higher severity) instead.
   */
  async insert(lesson: NewLesson, embedding: readonly number[]): Promise<string> {
    const params = [
      randomUUID(),
      lesson.userId,
      lesson.lessonType,
      lesson.pattern,
      toVectorLiteral(embedding),
      lesson.sourceMemoryIds,
      lesson.sourceQuery,
      lesson.severity,
      JSON.stringify({ ...lesson.metadata, occurrences: 1 }),
    ];
    const insert = `INSERT INTO lessons (id, user_id, lesson_type, pattern, embedding, source_memory_ids, source_query, severity, metadata)
                    VALUES ($1, $2, $3, $4, CAST($5 AS vector), CAST($6 AS uuid[]), $7, $8, CAST($9 AS jsonb))`;
    if (lesson.lessonType === 'user_reported') {
      await this.lessons.query(insert, params);
      return params[0] as string;
    }
    const rows: { id: string }[] = await this.lessons.query(
      `${insert}
       ON CONFLICT (user_id, lesson_type, md5(pattern)) WHERE active AND lesson_type <> 'user_reported'
       DO UPDATE SET
         metadata = lessons.metadata || jsonb_build_object(
           'occurrences', COALESCE((lessons.metadata->>'occurrences')::int, 1) + 1,
           'last_seen_at', to_jsonb(now())),
         source_memory_ids = (SELECT COALESCE(array_agg(DISTINCT x), '{}') FROM unnest(lessons.source_memory_ids || EXCLUDED.source_memory_ids) AS x),
         severity = CASE WHEN array_position(ARRAY['low','medium','high','critical'], EXCLUDED.severity)
                            > array_position(ARRAY['low','medium','high','critical'], lessons.severity)
                         THEN EXCLUDED.severity ELSE lessons.severity END
       RETURNING id`,
      params,
    );
    return rows[0].id;
  }

  async listActive(userId: string): Promise<LessonEntity[]> {
    return this.lessons
      .createQueryBuilder('l')
      .andWhere('l.user_id = :userId AND l.active', { userId })
      .orderBy('l.created_at', 'DESC')
      .addOrderBy('l.id', 'DESC')
      .getMany();
  }

  async countsByType(userId: string): Promise<{ lesson_type: LessonType; n: number }[]> {
    return this.lessons.query(
      'SELECT lesson_type, count(*)::int AS n FROM lessons WHERE user_id = $1 AND active GROUP BY lesson_type',
      [userId],
    );
  }

  /** Retire (active = false), keeping the row for audit. False when no active lesson of the user has that id. */
  async retire(userId: string, id: string): Promise<boolean> {
    const rows: { n: number }[] = await this.lessons.query(
      `WITH retired AS (
         UPDATE lessons SET active = false, retired_at = now()
          WHERE user_id = $1 AND id = $2 AND active
          RETURNING 1)
       SELECT count(*)::int AS n FROM retired`,
      [userId, id],
    );
    return rows[0].n > 0;
  }

  /** The user's active lessons within `threshold` cosine similarity of the vector, closest first. */
  async matchActive(userId: string, embedding: readonly number[], threshold: number, limit: number): Promise<LessonMatch[]> {
    const rows: LessonMatch[] = await this.lessons.query(
      `SELECT id, lesson_type, pattern, severity, 1 - (embedding <=> CAST($2 AS vector)) AS similarity
         FROM lessons
        WHERE user_id = $1 AND active AND (embedding <=> CAST($2 AS vector)) <= $3
        ORDER BY embedding <=> CAST($2 AS vector), id
        LIMIT $4`,
      // A hair of tolerance so a similarity of exactly the threshold (float32 storage) still matches.
      [userId, toVectorLiteral(embedding), 1 - threshold + 1e-7, limit],
    );
    return rows.map((r) => ({ ...r, similarity: Number(r.similarity) }));
  }
}
