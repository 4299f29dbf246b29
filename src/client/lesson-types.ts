import type { Camelized, LessonCheckWire, WireLessonSeverity, WireLessonType } from '../contract/wire-types';

export type LessonType = WireLessonType;
export type LessonSeverity = WireLessonSeverity;

/** The `lesson_check` block of a search (spec 2.6): `safe: false` means it failed closed. */
export type LessonCheck = Camelized<LessonCheckWire>;

/** A stored lesson (spec 2.5). `pattern` may hold raw attack text: treat it as sensitive. */
export interface Lesson {
  id: string;
  userId: string;
  lessonType: LessonType;
  pattern: string;
  embedding: number[];
  sourceMemoryIds: string[];
  sourceQuery: string | null;
  severity: LessonSeverity;
  active: boolean;
  /** Trigger details, as the service wrote them (keys not re-cased, e.g. `sourceSite`). */
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** `userId` may be left out with an API key (the key's user is used). */
export interface LessonUserOptions {
  userId?: string;
}

export interface LessonList {
  /** Active lessons, newest first. */
  lessons: Lesson[];
  count: number;
}

export interface LessonStats {
  totalActive: number;
  /** Keyed by lesson type value (`user_reported`), not re-cased; empty while lessons are off. */
  byType: Partial<Record<LessonType, number>>;
}

export interface ReportLessonOptions {
  userId?: string;
  /** 1..2000 characters. A search whose query embeds close to it (cosine >= 0.75) matches. */
  pattern: string;
  sourceMemoryIds?: readonly string[];
  /** Default `high`; `critical` makes matching searches fail closed. */
  severity?: LessonSeverity;
}

export interface ReportLessonResult {
  /** null while lessons are off (nothing was stored). */
  lessonId: string | null;
}

export interface RetireLessonOptions {
  userId?: string;
  id: string;
}
