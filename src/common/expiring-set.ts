/**
 * A bounded map whose entries are forgotten `ttlMs` after they were set; when full, setting
 * drops the oldest entry first. For keys made from request data (VectorSearch's full-text
 * population statistics of large scopes), so that many distinct callers cannot grow it past
 * `maxEntries`.
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

/**
 * A bounded set of keys that are forgotten after `ttlMs`; when full, adding drops the oldest
 * key first (an ExpiringMap without values; VectorSearch's large scopes).
 */
export class ExpiringSet {
  private readonly keys: ExpiringMap<true>;

  constructor(ttlMs: number, maxEntries: number, now: () => number = Date.now) {
    this.keys = new ExpiringMap<true>(ttlMs, maxEntries, now);
  }

  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.get(key) !== undefined;
  }

  add(key: string): void {
    this.keys.set(key, true);
  }
}
