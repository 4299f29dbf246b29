import { ApiKeyAuthenticator, KEY_CACHE_LIMIT } from '../../src/auth/api-key-authenticator';
import { mintApiKey } from '../../src/auth/api-key-secret';
import type { ApiKeysRepository, StoredKeyForLookup } from '../../src/database/api-keys.repository';

/**
 * The in-memory side of key authentication: bounded, least recently used first out, and a
 * key that the store reports revoked is dropped. (Whether a revoked key is refused is proven
 * against real databases in test/auth/key-cache.e2e.spec.ts; this store only counts reads.)
 */
class CountingStore {
  readonly rows = new Map<string, StoredKeyForLookup>();
  reads = 0;

  add(): { key: string; id: string } {
    const minted = mintApiKey();
    const id = `00000000-0000-4000-8000-${String(this.rows.size).padStart(12, '0')}`;
    this.rows.set(minted.prefix, {
      id,
      role: 'user',
      user_id: 'u',
      workspace_id: null,
      agent_id: null,
      label: null,
      expires_at: null,
      revoked_at: null,
      rate_limit_per_minute: null,
      created_at: new Date(),
      key_hash: minted.hash,
    });
    return { key: minted.key, id };
  }

  async findByPrefix(prefix: string): Promise<StoredKeyForLookup | null> {
    this.reads++;
    return this.rows.get(prefix) ?? null;
  }
}

describe('ApiKeyAuthenticator memory', () => {
  it(`holds at most ${KEY_CACHE_LIMIT} keys and drops the least recently used first`, async () => {
    const store = new CountingStore();
    const auth = new ApiKeyAuthenticator(store as unknown as ApiKeysRepository);
    const keys = Array.from({ length: KEY_CACHE_LIMIT + 1 }, () => store.add());
    const first = keys[0];
    await auth.authenticateForStatement(first.key);
    for (const k of keys.slice(1, KEY_CACHE_LIMIT)) await auth.authenticateForStatement(k.key);
    // Use the first again: now keys[1] is the least recently used.
    await auth.authenticateForStatement(first.key);
    await auth.authenticateForStatement(keys[KEY_CACHE_LIMIT].key);
    expect(auth.cachedKeys()).toBe(KEY_CACHE_LIMIT);
    const reads = store.reads;
    await auth.authenticateForStatement(first.key);
    expect(store.reads).toBe(reads);
    await auth.authenticateForStatement(keys[1].key);
    expect(store.reads).toBe(reads + 1);
  });

  it('reads the row on every fresh authentication and drops a key found revoked', async () => {
    const store = new CountingStore();
    const auth = new ApiKeyAuthenticator(store as unknown as ApiKeysRepository);
    const k = store.add();
    expect(await auth.authenticate(k.key)).not.toBeNull();
    expect(await auth.authenticate(k.key)).not.toBeNull();
    expect(store.reads).toBe(2);
    expect(auth.cachedKeys()).toBe(1);
    [...store.rows.values()][0].revoked_at = new Date();
    expect(await auth.authenticate(k.key)).toBeNull();
    expect(auth.cachedKeys()).toBe(0);
  });

  it('forgets a key by id', async () => {
    const store = new CountingStore();
    const auth = new ApiKeyAuthenticator(store as unknown as ApiKeysRepository);
    const a = store.add();
    const b = store.add();
    await auth.authenticateForStatement(a.key);
    await auth.authenticateForStatement(b.key);
    auth.forget(a.id);
    expect(auth.cachedKeys()).toBe(1);
    await auth.authenticateForStatement(b.key);
    expect(store.reads).toBe(2);
  });
});
