import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from '@langchain/langgraph';
import { AtriumError, type AtriumClient, type Visibility } from 'atrium/client';

import type { AtriumScope } from './scope';
import { matchesFilter, sameValue, textOf, type Value } from './values';

export interface AtriumStoreOptions {
  client: AtriumClient;
  /**
   * The Atrium scope of a namespace: one scope for every namespace, or a function of the
   * namespace (for example `(ns) => ({ userId: ns[1] })` for `['memories', userId]`).
   * Default `{}`: the API key's scope. Searches and namespace listings pass their prefix.
   */
  scope?: AtriumScope | ((namespace: readonly string[]) => AtriumScope);
  /** `source_site` of what the store writes. Default `langgraph`. */
  sourceSite?: string;
  /** Visibility of what the store writes in a workspace (the service's default: `workspace`). */
  visibility?: Visibility;
  /** Default fields whose text is stored and embedded, like LangGraph's `index.fields`. */
  fields?: string[];
}

/** A put that Atrium did not store: refused by the write gate, or a near-copy of another memory. */
export class AtriumStoreError extends Error {
  override readonly name = 'AtriumStoreError';
}

/** The item behind one memory: metadata.langgraph as the store writes it. */
interface StoredItem {
  memoryId: string;
  namespace: string[];
  key: string;
  value: Value;
  content: string;
  createdAt: string;
  updatedAt: string;
  score?: number;
  /** Older memories of the same key (left by an interrupted put), removed by the next put. */
  stale: string[];
}

const PAGE = 100;
const SEARCH_LIMIT = 100;

const itemKey = (namespace: readonly string[], key: string): string => JSON.stringify([namespace, key]);

const hasPrefix = (namespace: readonly string[], prefix: readonly string[]): boolean =>
  prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);

function matches(condition: MatchCondition, namespace: readonly string[]): boolean {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const start = condition.matchType === 'prefix' ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === '*' || namespace[start + i] === label);
}

/** The LangGraph item a memory holds, or undefined for a memory the store did not write. */
function toStored(memory: {
  id: string;
  content: string;
  createdAt: string;
  metadata: Record<string, unknown>;
  score?: number;
}): StoredItem | undefined {
  const record = memory.metadata.langgraph as
    { namespace?: unknown; key?: unknown; value?: unknown; created_at?: unknown; updated_at?: unknown } | undefined;
  if (!record || !Array.isArray(record.namespace) || typeof record.key !== 'string' || typeof record.value !== 'object' || !record.value)
    return undefined;
  return {
    memoryId: memory.id,
    namespace: record.namespace as string[],
    key: record.key,
    value: record.value as Value,
    content: memory.content,
    createdAt: typeof record.created_at === 'string' ? record.created_at : memory.createdAt,
    updatedAt: typeof record.updated_at === 'string' ? record.updated_at : memory.createdAt,
    score: memory.score,
    stale: [],
  };
}

function toItem(stored: StoredItem): Item {
  return {
    namespace: stored.namespace,
    key: stored.key,
    value: stored.value,
    createdAt: new Date(stored.createdAt),
    updatedAt: new Date(stored.updatedAt),
  };
}

type SearchItem = Item & { score?: number };

type Listing = (scope: AtriumScope) => Promise<Map<string, StoredItem>>;

/**
 * A LangGraph.js store backed by Atrium. Each item is one memory: its text (the value's
 * `content` or `text`, the `fields` given, or the value as JSON) is what Atrium gates, embeds and
 * searches; the namespace, key and whole value ride in the memory's metadata. The namespace
 * chooses the Atrium scope (`scope`), so visibility and isolation are Atrium's, enforced by the
 * service: another agent's `agent_only` item is never returned.
 *
 * - `search` with a `query` is one hybrid search in the scope (over-fetched, then narrowed to
 *   the namespace prefix and `filter`); `score` is Atrium's.
 * - `get`, `put`, `delete`, `listNamespaces` and a `search` without a query read the scope's
 *   listing (pages of 100), once per batch: right for an agent's memory (thousands of items),
 *   not for millions.
 * - A put of a new key stores a memory; a put of an existing key edits that memory (PATCH: one
 *   more version in its history, re-gated and re-embedded). Atrium de-duplicates new memories
 *   and gates every text: a new item whose text nearly repeats another visible memory, or a
 *   text the write gate refuses, is not stored and throws AtriumStoreError (an edit keeps the
 *   old value). In a workspace only the agent that wrote an item may change it.
 * - Within a batch, reads see the store as it was before the batch's puts (as InMemoryStore).
 */
export class AtriumStore extends BaseStore {
  private readonly client: AtriumClient;
  private readonly scopeOf: (namespace: readonly string[]) => AtriumScope;
  private readonly sourceSite: string;
  private readonly visibility?: Visibility;
  private readonly fields?: string[];

  constructor(options: AtriumStoreOptions) {
    super();
    const { client, scope = {}, sourceSite = 'langgraph', visibility, fields } = options;
    this.client = client;
    this.scopeOf = typeof scope === 'function' ? scope : () => scope;
    this.sourceSite = sourceSite;
    this.visibility = visibility;
    this.fields = fields;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const listings = new Map<string, Promise<Map<string, StoredItem>>>();
    const listing: Listing = (scope) => {
      const id = JSON.stringify(scope);
      let found = listings.get(id);
      if (!found) {
        found = this.listAll(scope);
        found.catch(() => undefined);
        listings.set(id, found);
      }
      return found;
    };
    const results: unknown[] = [];
    const puts = new Map<string, PutOperation>();
    for (const op of operations) {
      if ('value' in op) {
        puts.set(itemKey(op.namespace, op.key), op);
        results.push(null);
      } else if ('namespacePrefix' in op) results.push(await this.search_(op, listing));
      else if ('key' in op) results.push(await this.get_(op, listing));
      else results.push(await this.listNamespaces_(op, listing));
    }
    for (const op of puts.values()) await this.put_(op, listing);
    return results as OperationResults<Op>;
  }

  private async listAll(scope: AtriumScope): Promise<Map<string, StoredItem>> {
    const items = new Map<string, StoredItem>();
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.client.list({ ...scope, limit: PAGE, offset });
      for (const memory of page.memories) {
        const stored = toStored(memory);
        if (!stored) continue;
        const key = itemKey(stored.namespace, stored.key);
        const newer = items.get(key);
        // Newest first: a second memory of a key is an older one.
        if (newer) newer.stale.push(stored.memoryId);
        else items.set(key, stored);
      }
      if (page.memories.length < PAGE) return items;
    }
  }

  private async get_(op: GetOperation, listing: Listing): Promise<Item | null> {
    const stored = (await listing(this.scopeOf(op.namespace))).get(itemKey(op.namespace, op.key));
    return stored ? toItem(stored) : null;
  }

  private async search_(op: SearchOperation, listing: Listing): Promise<SearchItem[]> {
    const { namespacePrefix: prefix, filter, limit = 10, offset = 0, query } = op;
    const scope = this.scopeOf(prefix);
    let candidates: StoredItem[];
    if (query) {
      const result = await this.client.search({ ...scope, query, limit: SEARCH_LIMIT });
      const seen = new Set<string>();
      candidates = result.memories.flatMap((hit) => {
        const stored = toStored(hit);
        if (!stored || seen.has(itemKey(stored.namespace, stored.key))) return [];
        seen.add(itemKey(stored.namespace, stored.key));
        return [stored];
      });
    } else {
      candidates = [...(await listing(scope)).values()];
    }
    return candidates
      .filter((stored) => hasPrefix(stored.namespace, prefix) && matchesFilter(stored.value, filter))
      .slice(offset, offset + limit)
      .map((stored) => ({ ...toItem(stored), score: query ? stored.score : undefined }));
  }

  private async listNamespaces_(op: ListNamespacesOperation, listing: Listing): Promise<string[][]> {
    const conditions = op.matchConditions ?? [];
    const prefix = conditions.find((c) => c.matchType === 'prefix')?.path ?? [];
    const distinct = new Map<string, string[]>();
    for (const stored of (await listing(this.scopeOf(prefix))).values()) {
      if (!conditions.every((condition) => matches(condition, stored.namespace))) continue;
      const namespace = op.maxDepth === undefined ? stored.namespace : stored.namespace.slice(0, op.maxDepth);
      distinct.set(JSON.stringify(namespace), namespace);
    }
    const sorted = [...distinct.values()].sort((a, b) => a.join(':').localeCompare(b.join(':')));
    return sorted.slice(op.offset ?? 0, (op.offset ?? 0) + (op.limit ?? sorted.length));
  }

  private async put_(op: PutOperation, listing: Listing): Promise<void> {
    const scope = this.scopeOf(op.namespace);
    const existing = (await listing(scope)).get(itemKey(op.namespace, op.key));
    if (op.value === null) {
      if (existing) await this.remove(scope, [existing.memoryId, ...existing.stale]);
      return;
    }
    const content = textOf(op.value, op.index === false ? undefined : (op.index ?? this.fields));
    if (existing && existing.content === content && sameValue(existing.value, op.value) && existing.stale.length === 0) return;
    const now = new Date().toISOString();
    const metadata = {
      langgraph: { namespace: op.namespace, key: op.key, value: op.value, created_at: existing?.createdAt ?? now, updated_at: now },
    };
    const name = itemKey(op.namespace, op.key);
    if (existing) {
      // The same memory, edited: one more version in its history, re-gated and re-embedded.
      try {
        await this.client.update({ ...scope, id: existing.memoryId, content, metadata });
      } catch (error) {
        if (error instanceof AtriumError && error.status === 422)
          throw new AtriumStoreError(`put ${name}: the write gate refused the new value; the old one is kept`);
        if (error instanceof AtriumError && error.status === 403)
          throw new AtriumStoreError(`put ${name}: the item belongs to another agent`);
        throw error;
      }
      await this.remove(scope, existing.stale);
      return;
    }
    if (!(await this.write(scope, content, metadata))) {
      throw new AtriumStoreError(`put ${name}: not stored (the write gate refused it, or it repeats a memory in this scope)`);
    }
  }

  private async write(scope: AtriumScope, content: string, metadata: Record<string, unknown>): Promise<boolean> {
    const result = await this.client.ingestQuick({
      ...scope,
      conversation: content,
      sourceSite: this.sourceSite,
      skipExtraction: true,
      metadata,
      ...(this.visibility && { visibility: this.visibility }),
    });
    return result.storedMemoryIds.length > 0;
  }

  private async remove(scope: AtriumScope, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.client.delete({ ...scope, id });
      } catch (error) {
        // Already gone (another writer removed it): the outcome wanted.
        if (!(error instanceof AtriumError && error.status === 404)) throw error;
      }
    }
  }
}
