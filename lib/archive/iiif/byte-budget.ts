/**
 * The accounting of a cache bounded in bytes: entries in order of their last use, their total,
 * and which to drop (the least recently used first) when an addition goes over the budget.
 * Pure: the caller removes the files it names. The entry just added is never dropped, even
 * when it alone is larger than the budget.
 */
export interface ByteBudget {
  /** Counts an entry as just used; returns the entries to remove to get back within the budget. */
  add(key: string, bytes: number): string[];
  /** Marks an entry as just used (a cache hit). */
  touch(key: string): void;
  /** Forgets an entry removed for another reason. */
  remove(key: string): void;
  has(key: string): boolean;
  readonly totalBytes: number;
}

export function createByteBudget(maxBytes: number): ByteBudget {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, number>();
  let total = 0;
  const remove = (key: string) => {
    const bytes = entries.get(key);
    if (bytes === undefined) return;
    entries.delete(key);
    total -= bytes;
  };
  return {
    add(key, bytes) {
      remove(key);
      entries.set(key, bytes);
      total += bytes;
      const evicted: string[] = [];
      for (const [oldest, size] of entries) {
        if (total <= maxBytes || oldest === key) break;
        entries.delete(oldest);
        total -= size;
        evicted.push(oldest);
      }
      return evicted;
    },
    touch(key) {
      const bytes = entries.get(key);
      if (bytes === undefined) return;
      entries.delete(key);
      entries.set(key, bytes);
    },
    remove,
    has: (key) => entries.has(key),
    get totalBytes() {
      return total;
    },
  };
}
