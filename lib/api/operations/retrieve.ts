import "server-only";
import { z } from "zod";
import { maxSearchLimit } from "../../rag/search/search-archive";
import { retrieveOutput } from "../api-schemas";
import { hitCitation, limitInput, passageSearch, queryInput, scopeInputs } from "./inputs";
import { defineOperation } from "./operation";

export const retrieveOperation = defineOperation({
  name: "retrieve",
  title: "Retrieve passages",
  description: "The passages that best match a query, whole, with their citations: evidence to read or quote, from records you may read.",
  method: "POST",
  path: "/retrieve",
  pathParams: [],
  input: z.strictObject({ query: queryInput, limit: limitInput(8, maxSearchLimit), ...scopeInputs }),
  output: retrieveOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const result = await passageSearch(input, context);
    return {
      query: result.query,
      passages: result.hits.map((hit, index) => ({
        citation: hitCitation(hit, index + 1, context.origin),
        text: hit.passage.text,
        translation: hit.passage.translatedText,
        score: hit.score,
        similarity: hit.similarity,
      })),
    };
  },
});
