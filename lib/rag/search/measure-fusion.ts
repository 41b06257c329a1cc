import "server-only";
import type { Principal } from "../../acl";
import type { FusionCalibration } from "../index/index-spaces";
import { getConfig } from "../../config";
import { type CalibrationQuestion, calibrateFusion, chooseLengthNormalisation, legNdcg, lengthGrid } from "./calibrate-fusion";
import { type SearchContext, assertSearchable, lengthNormalisationFor, parseSearchRequest, runSearchLegs } from "./search-archive";

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
  const { questions: atChosenB, length } = await measureFusionQuestions(context, principal, questions);
  return { ...calibrateFusion(atChosenB, { source }), ...length };
}

/** The questions' legs as calibrateFusion takes them (the words leg at the chosen b), and that b. */
export async function measureFusionQuestions(
  context: SearchContext,
  principal: Principal,
  questions: readonly { query: string; judged: ReadonlyMap<string, number>; sectionIds?: string[] }[],
): Promise<{ questions: CalibrationQuestion[]; length: Pick<FusionCalibration, "lengthNormalisation" | "lengthFigures"> }> {
  const space = assertSearchable(context);
  const measured: (CalibrationQuestion & { words: CalibrationQuestion["lists"][number][] })[] = [];
  for (const question of questions) {
    const request = parseSearchRequest({ query: question.query, mode: "hybrid", limit: 10, collapse: "record", sectionIds: question.sectionIds });
    const { lists, language } = await runSearchLegs(context, principal, request, space);
    const words: CalibrationQuestion["lists"][number][] = [];
    for (const b of lengthGrid) {
      const legs = await runSearchLegs(context, principal, { ...request, mode: "keyword" }, space, { lengthNormalisation: b });
      words.push(legs.lists.find((list) => list.leg === "words") ?? { leg: "words", hits: [] });
    }
    measured.push({ language: language ?? "und", lists, judged: question.judged, words });
  }
  const length = chooseLengthNormalisation(
    measured.map((question) => ({
      language: question.language,
      keyword: question.words.map((list) => legNdcg(list, question.judged)),
      judged: [...question.judged.values()].some((grade) => grade > 0),
    })),
    { defaultB: getConfig().MNEMO_BM25_B },
  );
  const atChosenB = measured.map((question): CalibrationQuestion => {
    const b = lengthNormalisationFor(length, question.language);
    const index = b === undefined ? -1 : lengthGrid.indexOf(b);
    const words = index >= 0 ? question.words[index] : undefined;
    return { language: question.language, judged: question.judged, lists: words ? [...question.lists.filter((list) => list.leg !== "words"), words] : question.lists };
  });
  return { questions: atChosenB, length };
}
