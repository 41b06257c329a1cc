import { z } from "zod";
import { questionTextSchema } from "../../query-length";
import { citationSchema } from "../api-schemas";

/**
 * Research mode's request and its NDJSON events, for the routes, the Ask panel and OpenAPI.
 * No server-only import: the panel parses the stream with these. One run: `start`, then a `step` per tool call, then an `answer` (or a `budget` or an `error`),
 * and always `done` last with how it ended.
 */
/** Rate-limit units one run costs (ask costs 5): a run is many model turns and tool calls. */
export const researchCost = 20;

export const researchBudgetNames = ["turns", "tool_calls", "time", "tokens"] as const;
export type ResearchBudgetName = (typeof researchBudgetNames)[number];

export const researchStatuses = ["answered", "budget", "failed", "cancelled", "unavailable"] as const;
export type ResearchStatus = (typeof researchStatuses)[number];

export const researchScopeSchema = z
  .strictObject({
    sections: z.array(z.string().min(1).max(64)).max(50).optional().describe("Only these sections, by slug."),
    projectIds: z.array(z.string().min(1).max(64)).max(50).optional().describe("Only these projects, by id."),
    recordIds: z.array(z.string().min(1).max(64)).max(500).optional().describe("Only passages of these records (retrieve)."),
  })
  .describe("Narrows the searches the model runs (semantic_search and retrieve) to these sections, projects and records, whatever the model asks for.");
export type ResearchScope = z.output<typeof researchScopeSchema>;

/** The body of POST /api/v1/research and POST /api/research: the question as ask takes it. */
export const researchRequestSchema = z.strictObject({
  question: questionTextSchema.describe("The research question, in English, Spanish or Catalan."),
  scope: researchScopeSchema.optional(),
});
export type ResearchRequest = z.output<typeof researchRequestSchema>;

/** A source the answer cites: ask's citation, except that a whole record read (read_record, similar_objects) has no passage id. */
export const researchCitationSchema = citationSchema.extend({
  chunkId: z.string().nullable().describe("The passage's id; null when the source is a whole record."),
});
export type ResearchCitation = z.output<typeof researchCitationSchema>;

const link = z.object({ title: z.string(), href: z.string().describe("The record's page: /records/{id} (absolute over the API).") });

export const researchStreamEvent = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("start"),
      model: z.string(),
      maxTurns: z.number().int(),
      maxToolCalls: z.number().int(),
      maxSeconds: z.number().int(),
      maxTokens: z.number().int(),
      tools: z.array(z.string()),
    })
    .describe("The run began: its model, budgets and the tools the model may call."),
  z
    .object({
      type: z.literal("step"),
      index: z.number().int().describe("1, 2, … in the order the calls ran."),
      tool: z.string(),
      arguments: z.unknown().describe("The arguments as the model sent them (parsed JSON when they were JSON)."),
      summary: z.string().describe('A short account of the result, e.g. "5 hits: …", or what went wrong.'),
      links: z.array(link).describe("Records the result named that you may read."),
      withheld: z.number().int().describe("Records or passages in the result whose text was not sent to the model (local-only sections)."),
      error: z.string().optional().describe("The tool error the model received (not_found alike for a missing and an unreadable record)."),
    })
    .describe("One tool call and its result."),
  z
    .object({
      type: z.literal("answer"),
      text: z.string().describe("The verified answer: [1], [2]… are the citations, in order of first citation."),
      citations: z.array(researchCitationSchema),
      dropped: z
        .array(z.object({ number: z.number().int(), reason: z.enum(["unknown_source", "quote_not_found"]), quote: z.string().optional() }))
        .describe("Citations the sources did not support: their statements were removed."),
    })
    .describe("The final answer, after citation verification."),
  z
    .object({ type: z.literal("budget"), budget: z.enum(researchBudgetNames), message: z.string() })
    .describe("A budget ran out before the model answered; the steps so far stand."),
  z.object({ type: z.literal("error"), message: z.string() }).describe("The run failed (the model could not be reached, or answered something unreadable)."),
  z.object({ type: z.literal("done"), status: z.enum(researchStatuses) }).describe("The last event, always."),
]);
export type ResearchStreamEvent = z.output<typeof researchStreamEvent>;
