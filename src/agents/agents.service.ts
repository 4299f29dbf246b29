import { Injectable } from '@nestjs/common';

import type { Actor } from '../common/identity/principal';
import { AgentsRepository } from '../database/agents.repository';

/** Trust level of an agent with no row. */
export const DEFAULT_AGENT_TRUST = 0.5;

@Injectable()
export class AgentsService {
  constructor(private readonly agents: AgentsRepository) {}

  async trustLevel(userId: string, agentId: string): Promise<number> {
    return (await this.agents.trustLevel(userId, agentId)) ?? DEFAULT_AGENT_TRUST;
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
    const row = await this.agents.setTrust(userId, agentId, trustLevel, displayName, actor, round);
    return { agent_id: agentId, trust_level: round(row.trust_level), display_name: row.display_name };
  }
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;
