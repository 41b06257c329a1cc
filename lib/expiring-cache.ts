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
  /** Entries per scope; the oldest go first. */
  maxEntries?: number;
  clock?: () => number;
}

export function createExpiringCache<Value>(options: ExpiringCacheOptions<Value>): ExpiringCache<Value> {
  const clock = options.clock ?? (() => performance.now());
  const maxEntries = options.maxEntries ?? 10_000;
  let scopes = new WeakMap<object, Map<string, { value: Value; expiresAt: number }>>();
  // Bumped by every forget: a load that started before it does not store its answer.
  let generation = 0;

  return {
    async get(scope, key, load) {
      const ttlMs = options.ttlMs();
      if (ttlMs <= 0) return load();
      const entries = scopes.get(scope);
      const entry = entries?.get(key);
      if (entry && entry.expiresAt > clock()) return options.copy(entry.value);
      const started = generation;
      const value = await load();
      if (started === generation) {
        let current = scopes.get(scope);
        if (!current) scopes.set(scope, (current = new Map()));
        current.delete(key);
        current.set(key, { value: options.copy(value), expiresAt: clock() + ttlMs });
        if (current.size > maxEntries) current.delete(current.keys().next().value as string);
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
