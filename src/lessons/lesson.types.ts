import type { LessonCheckWire } from '../client/wire-types';

export const LESSON_TYPES = ['injection_blocked', 'trust_violation', 'contradiction_pattern', 'false_memory', 'user_reported'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

export const LESSON_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type LessonSeverity = (typeof LESSON_SEVERITIES)[number];

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

/** The search response block (CONTRACT section 6), declared once in src/client/wire-types.ts. */
export type LessonCheck = LessonCheckWire;
