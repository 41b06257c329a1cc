import { createHash } from "node:crypto";

/**
 * The text part of an embedding cache key (the index space is the other): identical text in
 * the same space is embedded once, whichever record or passage it comes from.
 */
export function embeddingTextHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
