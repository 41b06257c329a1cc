import "server-only";
import { z } from "zod";
import { citationHref } from "../../format";
import { findSimilarRecords } from "../../rag/search/find-similar";
import { maxSearchLimit } from "../../rag/search/search-archive";
import { similarRecordsOutput } from "../api-schemas";
import { id, limitInput, recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

export const similarRecordsOperation = defineOperation({
  name: "similar_records",
  title: "Records similar to a record",
  description: "Records nearest in meaning to one record (optionally by one embed group, e.g. a profession), with the closest passage of each.",
  method: "GET",
  path: "/records/{recordId}/similar",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    limit: limitInput(10, maxSearchLimit),
    embedGroupId: id.optional().describe("Compare by this embed group's passages only (see embed_groups)."),
  }),
  output: similarRecordsOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const search = await context.runtime.search();
    const results = await findSimilarRecords(search.sql, context.principal, search.space, input.recordId, {
      embedGroupId: input.embedGroupId,
      limit: input.limit,
    });
    return {
      recordId: input.recordId,
      results: results.map((item) => ({
        recordId: item.recordId,
        recordTitle: item.recordTitle,
        section: item.sectionSlug,
        sectionName: item.sectionName,
        similarity: item.similarity,
        closestPassage: {
          chunkId: item.passage.chunkId,
          location: item.passage.groupLabel,
          snippet: item.passage.snippet.text,
          page: item.passage.page,
          timeStart: item.passage.timeStart,
          url: `${context.origin}${citationHref({ recordId: item.recordId, chunkId: item.passage.chunkId, timeStart: item.passage.timeStart })}`,
        },
      })),
    };
  },
});
