import "server-only";
import { z } from "zod";
import { maxSearchLimit, searchArchive, searchModes } from "../../rag/search/search-archive";
import { semanticSearchOutput } from "../api-schemas";
import { hitCitation, limitInput, projectIdsInput, projectIdsOf, queryInput, sectionIdsOf, sectionsInput } from "./inputs";
import { defineOperation } from "./operation";

export const semanticSearchOperation = defineOperation({
  name: "semantic_search",
  title: "Search the archive",
  description:
    "Hybrid search (meaning and keywords, fused) over the records you may read. One result per record, best first, each with its best passage and a citation.",
  method: "POST",
  path: "/search",
  pathParams: [],
  input: z.strictObject({
    query: queryInput,
    mode: z.enum(searchModes).default("hybrid").describe("hybrid (default), semantic (meaning only) or keyword."),
    limit: limitInput(10, maxSearchLimit),
    sections: sectionsInput,
    projectIds: projectIdsInput,
  }),
  output: semanticSearchOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const search = await context.runtime.search();
    const sectionIds = await sectionIdsOf(context.runtime.prisma, input.sections);
    const result = await searchArchive(search, context.principal, {
      query: input.query,
      mode: input.mode,
      limit: input.limit,
      sectionIds,
      projectIds: await projectIdsOf(context.runtime.prisma, context.principal, input.projectIds),
      collapse: "record",
    });
    return {
      query: result.query,
      mode: result.mode,
      results: result.hits.map((hit, index) => ({
        rank: index + 1,
        recordId: hit.recordId,
        recordTitle: hit.recordTitle,
        section: hit.sectionSlug,
        sectionName: hit.sectionName,
        score: hit.score,
        similarity: hit.similarity,
        foundBy: hit.legs,
        snippet: hit.passage.snippet.text,
        citation: hitCitation(hit, index + 1, context.origin),
      })),
      ...(result.rerank.note ? { notice: result.rerank.note } : {}),
    };
  },
});
