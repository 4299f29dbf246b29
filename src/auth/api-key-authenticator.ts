import { Injectable } from '@nestjs/common';

import { assertNever } from '../common/errors/domain-error';
import type { Principal } from '../common/identity/principal';
import { ApiKeysRepository, type StoredKeyForLookup } from '../database/api-keys.repository';
import { hashApiKey, looksLikeApiKey, lookupPrefix, sameBytes } from './api-key-secret';

export interface AuthenticatedKey {
  principal: Exclude<Principal, { kind: 'open' }>;
  rateLimitPerMinute: number | null;
}

/** What never changes about a key once it is minted: everything but `revoked_at`. */
interface KeyFacts extends AuthenticatedKey {
  hash: Buffer;
  expiresAt: number | null;
}

/** Keys kept in memory per instance (oldest use dropped first); a key costs about 400 bytes. */
export const KEY_CACHE_LIMIT = 10_000;

/**
 * Turns a presented token into the key's principal, or null (unknown, revoked, expired,
 * malformed). Two ways, one rule: a revoked key is refused on the very next request, on every
 * instance.
 * - `authenticate` reads the key row by its unique prefix on every call (one index probe).
 * - `authenticateForStatement` answers from memory when it can: it keeps a key's immutable
 *   facts (hash, role, bindings, expiry, rate limit) and checks the hash and the expiry in
 *   process. It is only for routes whose one SQL statement re-checks `revoked_at` itself (the
 *   caller gets a KeyRecheck to pass down; search/fast does this), so the cache never decides
 *   that a key is still live: the database does, in the same round trip as the data.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly facts = new Map<string, KeyFacts>();

  constructor(private readonly keys: ApiKeysRepository) {}

  async authenticate(token: string, now = new Date()): Promise<AuthenticatedKey | null> {
    if (!looksLikeApiKey(token)) return null;
    const prefix = lookupPrefix(token);
    const row = await this.keys.findByPrefix(prefix);
    // Hash first, compare in constant time; an unknown prefix still pays for the hash.
    const presented = hashApiKey(token);
    if (!row || !sameBytes(presented, Buffer.from(row.key_hash))) return null;
    if (row.revoked_at !== null) {
      this.facts.delete(prefix);
      return null;
    }
    const facts = toFacts(row);
    this.remember(prefix, facts);
    return live(facts, now);
  }

  async authenticateForStatement(token: string, now = new Date()): Promise<AuthenticatedKey | null> {
    if (!looksLikeApiKey(token)) return null;
    const prefix = lookupPrefix(token);
    const cached = this.facts.get(prefix);
    if (!cached) return this.authenticate(token, now);
    if (!sameBytes(hashApiKey(token), cached.hash)) return null;
    // Most recently used last, so the oldest use is the first dropped.
    this.facts.delete(prefix);
    this.facts.set(prefix, cached);
    return live(cached, now);
  }

  /** Drop a key (revoked here, or a statement found it revoked): its next use reads the row. */
  forget(keyId: string): void {
    for (const [prefix, facts] of this.facts) {
      if (facts.principal.keyId === keyId) this.facts.delete(prefix);
    }
  }

  /** Keys held in memory now (for tests and the benchmark). */
  cachedKeys(): number {
    return this.facts.size;
  }

  private remember(prefix: string, facts: KeyFacts): void {
    this.facts.delete(prefix);
    this.facts.set(prefix, facts);
    while (this.facts.size > KEY_CACHE_LIMIT) this.facts.delete(this.facts.keys().next().value as string);
  }
}

function live(facts: KeyFacts, now: Date): AuthenticatedKey | null {
  if (facts.expiresAt !== null && facts.expiresAt <= now.getTime()) return null;
  return { principal: facts.principal, rateLimitPerMinute: facts.rateLimitPerMinute };
}

function toFacts(row: StoredKeyForLookup): KeyFacts {
  return {
    principal: toPrincipal(row),
    rateLimitPerMinute: row.rate_limit_per_minute,
    hash: Buffer.from(row.key_hash),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
  };
}

function toPrincipal(row: StoredKeyForLookup): AuthenticatedKey['principal'] {
  switch (row.role) {
    case 'service':
      return { kind: 'service', keyId: row.id };
    case 'user':
      return { kind: 'user', keyId: row.id, userId: row.user_id };
    case 'agent':
      return {
        kind: 'agent',
        keyId: row.id,
        userId: row.user_id,
        workspaceId: row.workspace_id as string,
        agentId: row.agent_id as string,
      };
    default:
      return assertNever(row.role);
  }
}
