import "server-only";
import { z } from "zod";
import type { PrismaClient } from "../../db/generated/client";
import { citationHref } from "../../format";
import { type AskEvent, type AskOutcome, type Citation, ask } from "../../rag/ask/ask";
import { maxQueryLength } from "../../rag/search/search-archive";
import { type ApiCitation, askOutput, askStreamEvent, citationLine } from "../api-schemas";
import { projectIdsOf, scopeInputs, sectionIdsOf } from "./inputs";
import { type OperationContext, defineOperation } from "./operation";

async function sectionNames(prisma: PrismaClient): Promise<Map<string, string>> {
  const rows = await prisma.section.findMany({ select: { slug: true, name: true } });
  return new Map(rows.map((row) => [row.slug, row.name]));
}

function askCitation(citation: Citation, names: Map<string, string>, origin: string): ApiCitation {
  return {
    id: String(citation.number),
    recordId: citation.recordId,
    recordTitle: citation.recordTitle,
    section: citation.sectionSlug,
    sectionName: names.get(citation.sectionSlug) ?? citation.sectionSlug,
    chunkId: citation.chunkId,
    location: citation.location,
    language: null,
    page: citation.page,
    pageEnd: citation.pageEnd,
    timeStart: citation.timeStart,
    timeEnd: citation.timeEnd,
    url: `${origin}${citationHref(citation)}`,
  };
}

function askResult(outcome: AskOutcome, names: Map<string, string>, origin: string): z.input<typeof askOutput> {
  return {
    status: outcome.status,
    answer: outcome.text,
    citations: outcome.citations.map((citation) => askCitation(citation, names, origin)),
    withheld: outcome.withheld.map((source) => ({
      recordId: source.recordId,
      recordTitle: source.recordTitle,
      chunkId: source.chunkId,
      url: `${origin}${citationHref(source)}`,
    })),
    generator: outcome.provenance.generator,
  };
}

const askInput = z.strictObject({
  question: z
    .string()
    .trim()
    .min(3, "Ask a question of at least a few words.")
    .max(maxQueryLength, `A question can be at most ${maxQueryLength} characters long.`)
    .describe("The question, in English, Spanish or Catalan."),
  ...scopeInputs,
  stream: z
    .boolean()
    .default(false)
    .describe("Stream the answer as NDJSON events: delta… with sources just before the text that first cites them, then final."),
});

async function* askEvents(input: z.output<typeof askInput>, context: OperationContext): AsyncGenerator<AskEvent, AskOutcome> {
  const askContext = await context.runtime.ask();
  const sectionIds = await sectionIdsOf(context.runtime.prisma, input.sections);
  return yield* ask(askContext, context.principal, {
    question: input.question,
    scope: { sectionIds, projectIds: await projectIdsOf(context.runtime.prisma, context.principal, input.projectIds), recordIds: input.recordIds },
  });
}

function textWithCitations(text: string, citations: readonly ApiCitation[]): string {
  if (citations.length === 0) return text;
  return `${text}\n\nSources:\n${citations.map((citation) => `${citationLine(citation)}\n${citation.url}`).join("\n")}`;
}

export const askOperation = defineOperation({
  name: "ask",
  title: "Ask a question",
  description:
    "A cited answer from passages you may read, or a refusal when they hold no evidence. Markers [1], [2]… in the answer refer to the citations, numbered in the order the answer first cites them. Over HTTP, stream: true streams NDJSON events.",
  method: "POST",
  path: "/ask",
  pathParams: [],
  input: askInput,
  toolInput: askInput.omit({ stream: true }),
  output: askOutput,
  cost: 5,
  scope: "read",
  async run(input, context) {
    const names = await sectionNames(context.runtime.prisma);
    const events = askEvents(input, context);
    let step = await events.next();
    while (!step.done) step = await events.next();
    return askResult(step.value, names, context.origin);
  },
  async *stream(input, context) {
    const names = await sectionNames(context.runtime.prisma);
    for await (const event of askEvents(input, context)) {
      // Each event goes through its schema, like every other result.
      if (event.type === "sources")
        yield askStreamEvent.parse({ type: "sources", citations: event.sources.map((citation) => askCitation(citation, names, context.origin)) });
      else if (event.type === "delta") yield askStreamEvent.parse({ type: "delta", text: event.text });
      else yield askStreamEvent.parse({ type: "final", result: askResult(event.outcome, names, context.origin) });
    }
  },
  toolText: (output) => textWithCitations(output.answer, output.citations),
});
