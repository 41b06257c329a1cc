import "server-only";
import type { Principal } from "../../acl";
import type { FusionCalibration } from "../index/index-spaces";
import { searchSettings } from "../config/settings";
import { type MeasuredQuestion, calibrateSpace, lengthGrid } from "./calibrate-fusion";
import { type SearchContext, assertSearchable, runSearchLegs } from "./search-archive";
import { parseSearchRequest } from "./search-request";

/**
 * Measures the fusion weights of the context's index space on questions with known answers: each
 * question's legs run as hybrid search runs them for a first page (the principal's access in
 * their SQL, so records the principal may not read neither rank nor count), and its words leg
 * again at each BM25 b of the grid. chooseLengthNormalisation picks b per query language, each
 * question's words leg at its language's b goes into the fusion, and calibrateFusion picks the
 * meaning share per query language. The caller stores the result on the space.
 */
export async function measureFusion(
  context: SearchContext,
  principal: Principal,
  questions: readonly { query: string; judged: ReadonlyMap<string, number>; sectionIds?: string[] }[],
  source: string,
): Promise<FusionCalibration> {
  return calibrateSpace(await measureFusionQuestions(context, principal, questions), {
    source,
    defaultB: searchSettings.bm25B.value,
    defaultSecondPassage: searchSettings.secondPassageShare.value,
  });
}

/** Each question's legs: meaning and words as hybrid search runs them, and words again at each b of the grid. */
export async function measureFusionQuestions(
  context: SearchContext,
  principal: Principal,
  questions: readonly { query: string; judged: ReadonlyMap<string, number>; sectionIds?: string[] }[],
): Promise<MeasuredQuestion[]> {
  const space = assertSearchable(context);
  const measured: MeasuredQuestion[] = [];
  for (const question of questions) {
    const request = parseSearchRequest({ query: question.query, mode: "hybrid", limit: 10, collapse: "record", sectionIds: question.sectionIds });
    const { lists, language } = await runSearchLegs(context, principal, request, space);
    const words: MeasuredQuestion["words"][number][] = [];
    for (const b of lengthGrid) {
      const legs = await runSearchLegs(context, principal, { ...request, mode: "keyword" }, space, { lengthNormalisation: b });
      words.push(legs.lists.find((list) => list.leg === "words") ?? { leg: "words", hits: [] });
    }
    measured.push({ language: language ?? "und", lists, judged: question.judged, words });
  }
  return measured;
}
