import { Injectable } from '@nestjs/common';

import { assertNever } from '../common/errors/domain-error';
import { hashApiKey, looksLikeApiKey, lookupPrefix, sameBytes } from './api-key-secret';
import { ApiKeysRepository, type StoredKeyForLookup } from '../database/api-keys.repository';
import type { Principal } from './principal';

export interface AuthenticatedKey {
  principal: Exclude<Principal, { kind: 'open' }>;
  rateLimitPerMinute: number | null;
}

/**
 * Turns a presented token into the key's principal, or null (unknown, revoked, expired,
 * malformed). Nothing is cached: every request reads the key row by its unique prefix, so a
 * revocation or an expiry applies to the very next request, on every instance. The cost of
 * that lookup is measured in docs/benchmarks.md.
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(private readonly keys: ApiKeysRepository) {}

  async authenticate(token: string, now = new Date()): Promise<AuthenticatedKey | null> {
    if (!looksLikeApiKey(token)) return null;
    const row = await this.keys.findByPrefix(lookupPrefix(token));
    // Hash first, compare in constant time; an unknown prefix still pays for the hash.
    const presented = hashApiKey(token);
    if (!row || !sameBytes(presented, Buffer.from(row.key_hash))) return null;
    if (row.revoked_at !== null) return null;
    if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) return null;
    return { principal: toPrincipal(row), rateLimitPerMinute: row.rate_limit_per_minute };
  }
}

function toPrincipal(row: StoredKeyForLookup): AuthenticatedKey['principal'] {
  switch (row.role) {
    case 'service':
      return { kind: 'service', keyId: row.id };
    case 'user':
      return { kind: 'user', keyId: row.id, userId: row.user_id };
    case 'agent':
      return { kind: 'agent', keyId: row.id, userId: row.user_id, workspaceId: row.workspace_id as string, agentId: row.agent_id as string };
    default:
      return assertNever(row.role);
  }
}
