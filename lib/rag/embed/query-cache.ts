import { LRUCache } from "lru-cache";
import type { Embedder } from "./embedder";

/**
 * The same query text gives the same vector, so a process keeps the last few hundred: a
 * repeated search, a page of list filters over one query, and an object page's catalogue text
 * (embedded on every view for its proposals) cost no model time after the first. Only "query"
 * embeddings are kept (passages are cached by the index, in the database); the text is the key,
 * never who asked, and each caller gets its own copy of the vector.
 */
export function withQueryCache(embedder: Embedder, maxEntries = 500): Embedder {
  const cache = new LRUCache<string, Float32Array>({ max: maxEntries });
  return {
    ...embedder,
    async embed(texts, kind, work) {
      if (kind !== "query") return embedder.embed(texts, kind, work);
      const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
      const fresh = missing.length > 0 ? await embedder.embed(missing, kind, work) : [];
      const found = new Map(missing.map((text, index) => [text, fresh[index]]));
      return texts.map((text) => {
        const vector = found.get(text) ?? cache.get(text);
        if (!vector) throw new Error("the embedder returned fewer vectors than texts");
        cache.set(text, vector);
        return new Float32Array(vector);
      });
    },
  };
}
