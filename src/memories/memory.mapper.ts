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

/**
 * The hits as a block an agent can paste into its prompt: a heading, then each memory as its
 * own fenced, labelled entry of exactly three lines (CONTRACT section 6, docs/api.md):
 *
 *   <memory n="1" id="<uuid>" source="chat.example" date="2026-11-25">
 *   I moved to Lisbon last year.
 *   </memory>
 *
 * Nothing a writer controls can forge an entry: the content and the source are one line
 * (whitespace, line breaks and control characters collapse to one space) and `&`, `<`, `>`
 * and `"` are escaped as XML entities, so the fence lines, which carry the memory's id, are
 * the only lines that start with `<`. `metadata` is never rendered here (it is raw data).
 */
export function toInjectionText(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return '';
  const entries = hits.map((hit, i) => {
    const date = hit.created_at.slice(0, 10);
    const open = `<memory n="${i + 1}" id="${hit.id}" source="${promptSafe(hit.source_site)}" date="${date}">`;
    return [open, promptSafe(hit.content), '</memory>'].join('\n');
  });
  return ['## Relevant memories', ...entries].join('\n');
}

/** One line, entities escaped: a writer's text as it may appear inside a prompt entry. */
export function promptSafe(text: string): string {
  return text
    .replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
