import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import type { Actor } from '../common/identity/principal';
import { SUBJECT_LOCK_KEY } from './access/erasure';
import { appendAuditEvent } from './audit/audit-log';
import { NamedStatements } from './named-statements';

/**
 * The agents table (trust levels, keyed by user and agent). Not a tenant table of memories, but
 * its statements live here, in the layer that holds connections, so that the agents feature
 * holds no manager (a manager reaches every table).
 */
@Injectable()
export class AgentsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: NamedStatements,
  ) {}

  /**
   * The stored trust level, or null without a row. Read on every workspace write (the write
   * gate weighs the writer's trust), so it is parsed once per connection, not per write.
   */
  async trustLevel(userId: string, agentId: string): Promise<number | null> {
    const [row] = await this.statements.rows<{ trust_level: number }>(
      'atrium_agent_trust',
      'SELECT trust_level FROM agents WHERE user_id = $1 AND agent_id = $2',
      [userId, agentId],
    );
    return row ? Number(row.trust_level) : null;
  }

  /** Upsert keyed by (user, agent), audited in the same transaction. An omitted display_name keeps the stored one. */
  async setTrust(
    userId: string,
    agentId: string,
    trustLevel: number,
    displayName: string | undefined,
    actor: Actor,
    auditedTrust: (stored: number) => number,
  ): Promise<{ trust_level: number; display_name: string | null }> {
    return this.dataSource.transaction(async (manager) => {
      // The user's subject lock, shared: an erasure of the user under way finishes first (access/erasure.ts).
      await manager.query(`SELECT pg_advisory_xact_lock_shared(${SUBJECT_LOCK_KEY('$1')})`, [userId]);
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
        detail: { trust_level: auditedTrust(Number(row.trust_level)) },
      });
      return { trust_level: Number(row.trust_level), display_name: row.display_name };
    });
  }
}
