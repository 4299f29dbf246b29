import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { VisibilityMode } from '../access/visibility';

export type { VisibilityMode as MemoryVisibility } from '../access/visibility';
export type MemoryType = 'semantic' | 'episodic' | 'procedural';
export type MemoryStatus = 'active' | 'needs_clarification';

/**
 * A stored memory. Schema and indexes are written by hand in migrations/ (synchronize is
 * off); the @Index declarations name the hand-made ones so tooling never drops them.
 * The embedding is never selected for responses.
 *
 * The table is hash-partitioned by user_id (migration 1763700004000), so its primary key in
 * the database is (id, user_id). Ids are random UUIDs and unique on their own; TypeORM keys
 * entities by `id`, and every statement also names the user (the scope), so one partition is read.
 *
 * Access counts live in memory_access_counts (migration 1763700150000), joined by the record
 * reads; the table's old access_count and last_accessed_at columns are no longer mapped.
 */
@Entity('memories')
@Index('memories_user_scope_idx', { synchronize: false })
@Index('memories_workspace_scope_idx', { synchronize: false })
@Index('memories_workspace_agent_idx', { synchronize: false })
@Index('memories_user_source_idx', { synchronize: false })
@Index('memories_user_episode_idx', { synchronize: false })
@Index('memories_content_tsv_idx', { synchronize: false })
@Index('memories_embedding_hnsw_idx', { synchronize: false })
export class MemoryEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'workspace_id', nullable: true }) workspaceId: string | null;
  @Column('uuid', { name: 'agent_id', nullable: true }) agentId: string | null;
  @Column('text', { nullable: true }) visibility: VisibilityMode | null;
  @Column('text') content: string;
  @Column('text', { name: 'memory_type' }) memoryType: MemoryType;
  @Column('real') importance: number;
  @Column('text', { name: 'source_site' }) sourceSite: string;
  @Column('text', { name: 'source_url', nullable: true }) sourceUrl: string | null;
  @Column('uuid', { name: 'episode_id', nullable: true }) episodeId: string | null;
  @Column('text', { nullable: true }) namespace: string | null;
  @Column('text') status: MemoryStatus;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('real', { name: 'trust_score' }) trustScore: number;
  @Column({ type: 'vector', select: false }) embedding: number[];
  /** Which embedder made `embedding` (embeddings/embedding-identity.ts); written with it. */
  @Column('text', { name: 'embedded_by', select: false }) embeddedBy: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
  @Column('timestamptz', { name: 'deleted_at', nullable: true, select: false }) deletedAt: Date | null;
  /** When ingest superseded this row (migration 1763700200000 renamed it from expired_at). */
  @Column('timestamptz', { name: 'superseded_at', nullable: true, select: false }) supersededAt: Date | null;
  /** 1 at creation, +1 per change; each version is a row of memory_versions. */
  @Column('integer') version: number;
  /** When the memory stops being returned (null: never). Purged EXPIRED_RETENTION_DAYS later. */
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  /** Set to the successor's created_at when superseded (valid time; null: still valid). */
  @Column('timestamptz', { name: 'valid_until', nullable: true }) validUntil: Date | null;
  @Column('uuid', { name: 'superseded_by', nullable: true, select: false }) supersededBy: string | null;
}
