import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Lets one agent see one `restricted` memory. */
@Entity('memory_visibility_grants')
export class VisibilityGrantEntity {
  @PrimaryColumn('uuid', { name: 'memory_id' }) memoryId: string;
  @PrimaryColumn('uuid', { name: 'grantee_agent_id' }) granteeAgentId: string;
  @Column('text', { name: 'user_id' }) userId: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('uuid', { name: 'granted_by_agent_id' }) grantedByAgentId: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
