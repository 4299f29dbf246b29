import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An agent's trust level within one user's tenancy. */
@Entity('agents')
export class AgentEntity {
  @PrimaryColumn('text', { name: 'user_id' }) userId: string;
  @PrimaryColumn('uuid', { name: 'agent_id' }) agentId: string;
  @Column('real', { name: 'trust_level' }) trustLevel: number;
  @Column('text', { name: 'display_name', nullable: true }) displayName: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
