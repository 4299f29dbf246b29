import { LESSON_SEVERITIES, type LessonCheckWire, type WireLessonSeverity, type WireLessonType } from '../contract/wire-types';

export { LESSON_SEVERITIES, LESSON_TYPES } from '../contract/wire-types';
export type LessonType = WireLessonType;
export type LessonSeverity = WireLessonSeverity;

export const severityRank = (severity: LessonSeverity | 'none'): number =>
  severity === 'none' ? 0 : LESSON_SEVERITIES.indexOf(severity) + 1;

/** A lesson about to be stored. */
export interface NewLesson {
  userId: string;
  lessonType: LessonType;
  pattern: string;
  /** Text whose embedding is stored (the offending extract; the pattern without the reason). */
  embedText: string;
  sourceMemoryIds: string[];
  sourceQuery: string | null;
  severity: LessonSeverity;
  metadata: Record<string, unknown>;
}

/** The search response block (CONTRACT section 6), declared once in src/contract/wire-types.ts. */
export type LessonCheck = LessonCheckWire;
