import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One ingest call: the conversation as received, and where it came from. */
@Entity('episodes')
export class EpisodeEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'workspace_id', nullable: true }) workspaceId: string | null;
  @Column('uuid', { name: 'agent_id', nullable: true }) agentId: string | null;
  @Column('text', { name: 'source_site' }) sourceSite: string;
  @Column('text', { name: 'source_url', nullable: true }) sourceUrl: string | null;
  @Column('text') content: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
