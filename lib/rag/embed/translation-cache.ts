import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { BRIDGE_VERSION } from "./bridge-text";

/**
 * The memory of the bridge's translations for reading (a transcript's English turns, a long
 * text's English paragraphs): a bounded map of promises keyed by content hash. A hit moves to
 * the end, the least recently used goes first (an lru-cache); a request that is still running is shared by every
 * reader who asks meanwhile; a failure is not kept, so the next request tries again.
 */
export interface TranslationCache<T> {
  remember(key: string, make: () => Promise<T>): Promise<T>;
  readonly size: number;
}

export function createTranslationCache<T>(capacity: number): TranslationCache<T> {
  const bound = Math.max(1, capacity);
  const entries = new LRUCache<string, Promise<T>>({ max: bound });
  return {
    remember(key, make) {
      const hit = entries.get(key);
      if (hit) return hit;
      const made = make();
      entries.set(key, made);
      made.catch(() => {
        if (entries.peek(key) === made) entries.delete(key);
      });
      return made;
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The key of one translation: what was translated (its content hash), from which language (or
 * how: "paragraphs"), by which version of the bridge's language handling. A changed text or a
 * new bridge version is another key.
 */
export function translationKey(kind: string, contentHash: string): string {
  return createHash("sha256").update(`${BRIDGE_VERSION}\n${kind}\n${contentHash}`).digest("hex");
}
