import type { LessonCheckWire, MemoryRecordWire, WireVisibility } from '../../contract/wire-types';
import type { ListArgs, RecallArgs, RememberArgs, ReportLessonArgs } from './catalogue';

/** One memory in a recall result (CONTRACT section 11). */
export interface RecalledMemory {
  id: string;
  content: string;
  score: number;
  created_at: string;
  agent_id: string | null;
  visibility: WireVisibility | null;
}

export interface RecallResult {
  memories: RecalledMemory[];
  lesson_check: LessonCheckWire;
}

export interface RememberResult {
  stored_memory_ids: string[];
  memories_skipped: number;
}

/**
 * What the tools do, for one caller whose identity the backend already holds (from the
 * connection). Two implementations: the service's own services (src/mcp/service-backend.ts)
 * and the typed HTTP client (src/mcp/stdio/client-backend.ts). A refusal the caller should
 * read (not found, blocked, invalid for this scope) is thrown as a ToolFailure; anything else
 * thrown is reported as an internal error without its details.
 */
export interface ToolBackend {
  remember(args: RememberArgs): Promise<RememberResult>;
  recall(args: RecallArgs): Promise<RecallResult>;
  getMemory(id: string): Promise<MemoryRecordWire>;
  listMemories(args: ListArgs): Promise<{ memories: MemoryRecordWire[]; count: number }>;
  forget(id: string): Promise<{ success: true }>;
  reportLesson(args: ReportLessonArgs): Promise<{ lesson_id: string | null }>;
}

/** A tool call the caller is told about: `isError: true` with this message as its text. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    /** For the per-tool metric: `blocked` for the write gate, `not_found`, or `refused` for the rest. */
    readonly outcome: 'blocked' | 'not_found' | 'refused' = 'refused',
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export const MEMORY_NOT_FOUND = 'memory not found';

/** The text of a write the gate refused: why, never the content itself. */
export function blockedMessage(reason: 'injection' | 'low_trust' | 'unknown'): string {
  switch (reason) {
    case 'injection':
      return 'not stored: the write gate blocked this content as a likely prompt injection (text that instructs an AI). A lesson was recorded.';
    case 'low_trust':
      return 'not stored: the write gate rejected this content because its trust score is below the threshold (untrusted source or agent). A lesson was recorded.';
    case 'unknown':
      return 'not stored: the write gate refused this content (a likely prompt injection or an untrusted source), or it repeats a memory you can already see.';
  }
}

/** Lessons switched off: nothing matched, nothing blocks. */
export const NO_LESSON_CHECK: LessonCheckWire = { safe: true, warnings: [], highest_severity: 'none', matched_count: 0 };
