/**
 * A bounded set of keys that are forgotten after `ttlMs`; when full, adding drops the oldest
 * key first. For keys made from request data (VectorSearch's large scopes), so that many
 * distinct callers cannot grow it past `maxEntries`.
 */
export class ExpiringSet {
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be an integer >= 1, got ${maxEntries}`);
  }

  get size(): number {
    return this.expiry.size;
  }

  has(key: string): boolean {
    const until = this.expiry.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.expiry.delete(key);
    return false;
  }

  add(key: string): void {
    this.expiry.delete(key);
    if (this.expiry.size >= this.maxEntries) this.expiry.delete(this.expiry.keys().next().value as string);
    this.expiry.set(key, this.now() + this.ttlMs);
  }
}

/**
 * ExpiringSet with a value per key: `get` answers undefined once `ttlMs` have passed since
 * `set`; when full, setting drops the oldest entry first. Bounded for keys made from
 * request data (VectorSearch's full-text population statistics of large scopes).
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { until: number; value: V }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be an integer >= 1, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { until: this.now() + this.ttlMs, value });
  }
}
