import type { MemoryEntity } from '../entities/memory.entity';
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from './memory-row';

/** A memory as the record routes return it: the row plus its access counts. */
export interface MemoryRecordRow {
  memory: MemoryEntity;
  accessCount: number;
  lastAccessedAt: Date | null;
}

/** The select list of a record read over the memories alias `m`. */
export const RECORD_SELECT = MEMORY_COLUMNS.map((c) => `m.${c} AS ${c}`).join(', ');

type Row = MemoryRow & { access_count: unknown; last_accessed_at: unknown };

export function toRecordRow(r: Row): MemoryRecordRow {
  return { memory: toMemory(r), accessCount: Number(r.access_count), lastAccessedAt: (r.last_accessed_at as Date | null) ?? null };
}
