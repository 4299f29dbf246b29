import type { MemoryRecordWire, MemoryVersionWire, SearchHitWire } from '../contract/wire-types';
import type { MemoryVersionRow } from '../database/access/memory-access';
import type { MemoryRecordRow } from '../database/access/record-statement';
import type { MemoryEntity } from '../database/entities/memory.entity';

/** CONTRACT section 4: the memory record on the wire (declared once, in src/contract/wire-types.ts). */
export type MemoryRecord = MemoryRecordWire;
export type SearchHit = SearchHitWire;
export type MemoryVersion = MemoryVersionWire;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

export function toMemoryRecord({ memory: m, accessCount, lastAccessedAt }: MemoryRecordRow): MemoryRecord {
  return {
    id: m.id,
    user_id: m.userId,
    content: m.content,
    memory_type: m.memoryType,
    importance: round(m.importance),
    source_site: m.sourceSite,
    source_url: m.sourceUrl,
    episode_id: m.episodeId,
    namespace: m.namespace,
    status: m.status,
    metadata: m.metadata ?? {},
    trust_score: round(m.trustScore),
    workspace_id: m.workspaceId,
    agent_id: m.agentId,
    visibility: m.visibility,
    created_at: iso(m.createdAt) as string,
    updated_at: iso(m.updatedAt) as string,
    last_accessed_at: iso(lastAccessedAt),
    access_count: accessCount,
    version: m.version,
    expires_at: iso(m.expiresAt),
    valid_until: iso(m.validUntil),
  };
}

/** One version of a memory on the wire (CONTRACT section 12). */
export function toMemoryVersion(v: MemoryVersionRow): MemoryVersion {
  return {
    version: v.version,
    change: v.change,
    content: v.content,
    metadata: v.metadata ?? {},
    visibility: v.visibility as MemoryVersion['visibility'],
    expires_at: iso(v.expires_at),
    changed_at: iso(v.changed_at) as string,
    agent_id: v.agent_id,
    key_id: v.key_id,
  };
}

export function toSearchHit(m: MemoryEntity, similarity: number, score: number): SearchHit {
  return {
    id: m.id,
    content: m.content,
    similarity: round(similarity),
    score: round(score),
    importance: round(m.importance),
    source_site: m.sourceSite,
    created_at: iso(m.createdAt) as string,
    metadata: m.metadata ?? {},
    workspace_id: m.workspaceId,
    agent_id: m.agentId,
    visibility: m.visibility,
  };
}

/** The hits as a block an agent can paste into its prompt. */
export function toInjectionText(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return '';
  const lines = hits.map(
    (hit, i) => `${i + 1}. ${hit.content.replace(/\s+/g, ' ').trim()} (${hit.source_site}, ${hit.created_at.slice(0, 10)})`,
  );
  return ['## Relevant memories', ...lines].join('\n');
}
