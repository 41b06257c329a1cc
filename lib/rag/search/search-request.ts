import { z } from "zod";
import { parseInput } from "../../errors";
import { maxQueryLength, queryTextSchema } from "../../query-length";
import { storableTextIssues } from "../../storable-text";

/** A search request at the boundary: its modes, its limits and the schema that clamps them. */
export const searchModes = ["hybrid", "semantic", "keyword"] as const;
export type SearchMode = (typeof searchModes)[number];
export { maxQueryLength };
export const maxSearchLimit = 50;

const clampLimit = (value: number) => Math.max(1, Math.min(maxSearchLimit, Math.trunc(value)));
const idList = z.array(z.string().min(1).max(64)).max(100);

/** A search request at the boundary: limits are clamped, the query is bounded, text must be storable. */
export const searchRequestSchema = z
  .object({
    query: queryTextSchema({
      what: "A search",
      missing: "A search needs some text.",
      tooShort: "Type something to search for.",
      tooLongHint: "; shorten it or use a few key words",
    }),
    mode: z.enum(searchModes).catch("hybrid"),
    limit: z.coerce
      .number()
      .catch(10)
      .transform((value) => (Number.isFinite(value) ? clampLimit(value) : 10)),
    sectionIds: idList.optional(),
    projectIds: idList.optional(),
    embedGroupId: z.string().min(1).max(64).optional(),
    recordIds: z.array(z.string().min(1).max(64)).max(500).optional(),
    collapse: z.enum(["record", "passage"]).catch("record"),
  })
  .superRefine(storableTextIssues);
export type SearchRequest = z.output<typeof searchRequestSchema>;
/** What callers pass; anything missing takes its default, anything out of range is clamped. */
export interface SearchRequestInput {
  query: string;
  mode?: SearchMode;
  limit?: number;
  sectionIds?: string[];
  projectIds?: string[];
  embedGroupId?: string;
  /** Only these records (e.g. the current search results). */
  recordIds?: string[];
  collapse?: "record" | "passage";
}

/** Parses a search request at the boundary, naming each bad field. */
export function parseSearchRequest(input: SearchRequestInput): SearchRequest {
  return parseInput(searchRequestSchema, input);
}
