import { MemoryEntity } from '../../memories/memory.entity';

/** A memory as the record routes return it: the row plus its access counts. */
export interface MemoryRecordRow {
  memory: MemoryEntity;
  accessCount: number;
  lastAccessedAt: Date | null;
}

/** The memory columns a record read returns (no embedding, no deletion bookkeeping). */
const RECORD_COLUMNS = [
  'id',
  'user_id',
  'workspace_id',
  'agent_id',
  'visibility',
  'content',
  'memory_type',
  'importance',
  'source_site',
  'source_url',
  'episode_id',
  'namespace',
  'status',
  'metadata',
  'trust_score',
  'created_at',
  'updated_at',
] as const;

/** The select list of a record read over the memories alias `m`. */
export const RECORD_SELECT = RECORD_COLUMNS.map((c) => `m.${c} AS ${c}`).join(', ');

type Row = Record<(typeof RECORD_COLUMNS)[number], unknown> & { access_count: unknown; last_accessed_at: unknown };

export function toRecordRow(r: Row): MemoryRecordRow {
  const m = new MemoryEntity();
  m.id = r.id as string;
  m.userId = r.user_id as string;
  m.workspaceId = r.workspace_id as string | null;
  m.agentId = r.agent_id as string | null;
  m.visibility = r.visibility as MemoryEntity['visibility'];
  m.content = r.content as string;
  m.memoryType = r.memory_type as MemoryEntity['memoryType'];
  m.importance = Number(r.importance);
  m.sourceSite = r.source_site as string;
  m.sourceUrl = r.source_url as string | null;
  m.episodeId = r.episode_id as string | null;
  m.namespace = r.namespace as string | null;
  m.status = r.status as MemoryEntity['status'];
  m.metadata = r.metadata as Record<string, unknown>;
  m.trustScore = Number(r.trust_score);
  m.createdAt = r.created_at as Date;
  m.updatedAt = r.updated_at as Date;
  return { memory: m, accessCount: Number(r.access_count), lastAccessedAt: (r.last_accessed_at as Date | null) ?? null };
}
