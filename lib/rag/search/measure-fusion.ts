import "server-only";
import type { Principal } from "../../acl";
import type { FusionCalibration } from "../index/index-spaces";
import { type CalibrationQuestion, calibrateFusion } from "./calibrate-fusion";
import { type SearchContext, assertSearchable, parseSearchRequest, runSearchLegs } from "./search-archive";

/**
 * Measures the fusion weights of the context's index space on questions with known answers: each
 * question's legs run once, as hybrid search runs them for a first page (the principal's access in
 * their SQL, so records the principal may not read neither rank nor count), and calibrateFusion
 * picks the meaning share per query language. The caller stores the result on the space.
 */
export async function measureFusion(
  context: SearchContext,
  principal: Principal,
  questions: readonly { query: string; judged: ReadonlyMap<string, number>; sectionIds?: string[] }[],
  source: string,
): Promise<FusionCalibration> {
  const space = assertSearchable(context);
  const measured: CalibrationQuestion[] = [];
  for (const question of questions) {
    const request = parseSearchRequest({ query: question.query, mode: "hybrid", limit: 10, collapse: "record", sectionIds: question.sectionIds });
    const { lists, language } = await runSearchLegs(context, principal, request, space);
    measured.push({ language: language ?? "und", lists, judged: question.judged });
  }
  return calibrateFusion(measured, { source });
}
