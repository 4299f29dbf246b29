import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import type { Actor } from '../common/identity/principal';
import { appendAuditEvent } from '../database/audit/audit-log';
import { AgentEntity } from '../database/entities/agent.entity';

/** Trust level of an agent with no row. */
export const DEFAULT_AGENT_TRUST = 0.5;

@Injectable()
export class AgentsService {
  constructor(@InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>) {}

  async trustLevel(userId: string, agentId: string): Promise<number> {
    const row = await this.agents
      .createQueryBuilder('a')
      .select('a.trust_level', 'trust_level')
      .where('a.user_id = :userId AND a.agent_id = :agentId', { userId, agentId })
      .getRawOne<{ trust_level: number }>();
    return row ? Number(row.trust_level) : DEFAULT_AGENT_TRUST;
  }

  async getTrust(userId: string, agentId: string): Promise<{ agent_id: string; trust_level: number }> {
    return { agent_id: agentId, trust_level: round(await this.trustLevel(userId, agentId)) };
  }

  /** Upsert: keyed by (user, agent). An omitted display_name keeps the stored one. */
  async setTrust(
    userId: string,
    agentId: string,
    trustLevel: number,
    displayName: string | undefined,
    actor: Actor,
  ): Promise<{ agent_id: string; trust_level: number; display_name: string | null }> {
    return this.agents.manager.transaction(async (manager) => {
      const [row]: { trust_level: number; display_name: string | null }[] = await manager.query(
        `INSERT INTO agents (user_id, agent_id, trust_level, display_name)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, agent_id) DO UPDATE
           SET trust_level = EXCLUDED.trust_level,
               display_name = COALESCE(EXCLUDED.display_name, agents.display_name),
               updated_at = now()
         RETURNING trust_level, display_name`,
        [userId, agentId, trustLevel, displayName ?? null],
      );
      await appendAuditEvent(manager, actor, {
        action: 'agent.trust_set',
        userId,
        targetId: agentId,
        detail: { trust_level: round(Number(row.trust_level)) },
      });
      return { agent_id: agentId, trust_level: round(Number(row.trust_level)), display_name: row.display_name };
    });
  }
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;
