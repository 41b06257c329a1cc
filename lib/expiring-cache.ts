import { LRUCache } from "lru-cache";

/**
 * A per-process cache of what many requests read and few change (a user's project sets, the
 * section definitions), kept for a short time. Entries live under a scope (the database client,
 * so two databases in one process, as in the tests, never share them) and a key the caller
 * chooses; the caller must pick a key no other principal can reach with a different answer (a
 * user id for that user's memberships, nothing for what every user sees alike).
 *
 * `forget` drops entries at once, for the edits made through this process; a load that was
 * already running when something was forgotten is not kept, so it cannot put back what the edit
 * replaced. Other processes see an edit when their entry expires (`ttlMs`). A time of 0 turns
 * the cache off. Each caller gets a copy (`copy`), so none can change what the next one reads.
 * A scope's entries are an lru-cache: bounded, the least recently read going first, each
 * expiring `ttlMs` after it was stored.
 */
export interface ExpiringCache<Value> {
  get(scope: object, key: string, load: () => Promise<Value>): Promise<Value>;
  /** One key of one scope, every key of one scope, or everything. */
  forget(scope?: object, key?: string): void;
}

export interface ExpiringCacheOptions<Value> {
  /** Read on every use, so a configuration read lazily applies. */
  ttlMs: () => number;
  copy: (value: Value) => Value;
  /** Entries per scope; the least recently read go first. */
  maxEntries?: number;
  clock?: () => number;
}

export function createExpiringCache<Value>(options: ExpiringCacheOptions<Value>): ExpiringCache<Value> {
  const clock = options.clock ?? (() => performance.now());
  const maxEntries = options.maxEntries ?? 10_000;
  // Value & {} (lru-cache's bound) — what a load resolves to is never null or undefined here.
  type Stored = Value & {};
  let scopes = new WeakMap<object, LRUCache<string, Stored>>();
  // ttlResolution 0: every staleness check reads the clock (an injected one in tests).
  const newScope = () => new LRUCache<string, Stored>({ max: maxEntries, ttlResolution: 0, perf: { now: clock } });
  // Bumped by every forget: a load that started before it does not store its answer.
  let generation = 0;

  return {
    async get(scope, key, load) {
      const ttlMs = options.ttlMs();
      if (ttlMs <= 0) return load();
      const entry = scopes.get(scope)?.get(key);
      if (entry !== undefined) return options.copy(entry);
      const started = generation;
      const value = await load();
      if (started === generation) {
        let current = scopes.get(scope);
        if (!current) scopes.set(scope, (current = newScope()));
        current.set(key, options.copy(value) as Stored, { ttl: ttlMs });
      }
      return value;
    },
    forget(scope, key) {
      generation += 1;
      if (!scope) scopes = new WeakMap();
      else if (key === undefined) scopes.delete(scope);
      else scopes.get(scope)?.delete(key);
    },
  };
}
