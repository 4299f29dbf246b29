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
