import "server-only";
import { z } from "zod";
import { findSimilarObjects, maxSimilarObjects, similarObjectModes } from "../../rag/objects/similar-objects";
import { similarObjectsOutput } from "../api-schemas";
import { limitInput, recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

export const similarObjectsOperation = defineOperation({
  name: "similar_objects",
  title: "Objects similar to an object",
  description:
    "Catalogued objects (coins, ceramics, museum objects) most like one object: by its images and catalogue context (hybrid), images only (visual), or near-duplicates of its images.",
  method: "GET",
  path: "/objects/{recordId}/similar",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    mode: z.enum(similarObjectModes).default("hybrid").describe("hybrid (default), visual, or near_duplicate."),
    limit: limitInput(12, maxSimilarObjects),
  }),
  output: similarObjectsOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const result = await findSimilarObjects(await context.runtime.objects(), context.principal, input);
    return {
      recordId: result.subject.recordId,
      status: result.status,
      mode: result.mode,
      views: result.views,
      usedContext: result.usedContext,
      floor: result.floor,
      results: result.neighbours.map((neighbour) => ({
        recordId: neighbour.recordId,
        title: neighbour.title,
        section: neighbour.sectionSlug,
        sectionName: neighbour.sectionName,
        score: neighbour.score,
        visualSimilarity: neighbour.visualSimilarity,
        contextSimilarity: neighbour.contextSimilarity,
        similarities: neighbour.similarities,
        roles: Object.fromEntries(Object.entries(neighbour.roles).filter((entry): entry is [string, string] => typeof entry[1] === "string")),
        date: neighbour.date,
        thumbnails: neighbour.images.map((image) => ({ view: image.view, url: `${context.origin}/api/media/${image.mediaId}?variant=thumb` })),
        url: `${context.origin}/records/${neighbour.recordId}`,
      })),
    };
  },
});
