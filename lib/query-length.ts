import { z } from "zod";

/**
 * The longest search query or question, in characters: one limit for search, ask, the ask
 * panel's scope, the JSON API and MCP, so a question that ask accepts is never refused by the
 * search it runs. No server-only import: the search box and the ask panel read it too.
 */
export const maxQueryLength = 1000;

/** The longest "contains text" filter of the record list (a substring match, not a search). */
export const maxFilterTextLength = 200;

/**
 * A query or question as every boundary accepts it: trimmed, at least `min` characters (1 unless
 * said), at most maxQueryLength, with the messages a person reads. `what` names it in the
 * too-long message ("A question", "A description").
 */
export function queryTextSchema(options: { what: string; missing: string; tooShort?: string; min?: number; tooLongHint?: string }) {
  return z
    .string({ error: options.missing })
    .trim()
    .min(options.min ?? 1, options.tooShort ?? options.missing)
    .max(maxQueryLength, `${options.what} can be at most ${maxQueryLength} characters long${options.tooLongHint ?? ""}.`);
}

/** A question as ask and research mode take it: at least a few words. */
export const questionTextSchema = queryTextSchema({
  what: "A question",
  missing: "Ask a question.",
  min: 3,
  tooShort: "Ask a question of at least a few words.",
});
