import "server-only";
import { getDatabase } from "../../db";
import { askThresholdsFromEnv, generatorFromEnv } from "./create-generator";
import type { Generator } from "../../llm/generator";
import { readAskThresholdOverrides } from "./ask-settings";
import { getSearchContext } from "../search/search-context";
import type { AskContext, AskSettings } from "./ask";

const globalForAsk = globalThis as unknown as { mnemoGenerator?: { generator: Generator; settings: Partial<AskSettings> } };

/** The web process's ask context: the search context, the configured generator and settings. */
export async function getAskContext(): Promise<AskContext> {
  const search = await getSearchContext();
  if (!globalForAsk.mnemoGenerator) {
    const { generator, settings } = generatorFromEnv(process.env, search.embedder);
    const thresholds = Object.fromEntries(Object.entries(askThresholdsFromEnv(process.env)).filter(([, value]) => value !== undefined));
    const generation = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
    globalForAsk.mnemoGenerator = { generator, settings: { ...generation, ...thresholds } };
  }
  const { prisma, sql } = await getDatabase();
  const prompts = await prisma.section.findMany({ where: { answerPrompt: { not: null } }, select: { slug: true, answerPrompt: true } });
  // Thresholds an admin set from the score distribution override the environment's.
  const overrides = await readAskThresholdOverrides(sql);
  return {
    ...search,
    generator: globalForAsk.mnemoGenerator.generator,
    settings: { ...globalForAsk.mnemoGenerator.settings, ...overrides, sectionPrompts: Object.fromEntries(prompts.map((section) => [section.slug, section.answerPrompt!])) },
  };
}
