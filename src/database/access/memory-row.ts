import { MemoryEntity } from '../entities/memory.entity';

/**
 * The memory columns the hand-mapped reads return (search, text search, get, list, expand): no
 * embedding, no deletion bookkeeping, no access counts (those live in memory_access_counts).
 */
export const MEMORY_COLUMNS = [
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
  'version',
  'expires_at',
  'valid_until',
] as const;

export type MemoryRow = Record<(typeof MEMORY_COLUMNS)[number], unknown>;

/** A row of MEMORY_COLUMNS as the entity the services use. */
export function toMemory(r: MemoryRow): MemoryEntity {
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
  m.version = Number(r.version);
  m.expiresAt = (r.expires_at as Date | null) ?? null;
  m.validUntil = (r.valid_until as Date | null) ?? null;
  return m;
}
