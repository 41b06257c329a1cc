import "server-only";
import { getConfig } from "../../config";
import { getDatabase, type Database } from "../../db";
import { generatorFromConfig } from "./create-generator";
import type { Generator } from "../../llm/generator";
import { readAskThresholdOverrides } from "./ask-settings";
import { getSearchContext, spaceKey } from "../search/search-context";
import type { SearchContext } from "../search/search-archive";
import type { AskContext, AskSettings } from "./ask";

/**
 * The answer generator per index space, like the query models: the extractive generator embeds
 * with the space's own model, so a space switched to never answers with the old one's.
 */
const globalForAsk = globalThis as unknown as { mnemoGenerators?: Map<string, { generator: Generator; settings: Partial<AskSettings> }> };

function generatorFor(search: SearchContext): { generator: Generator; settings: Partial<AskSettings> } {
  globalForAsk.mnemoGenerators ??= new Map();
  const key = spaceKey(search.space ?? null);
  let built = globalForAsk.mnemoGenerators.get(key);
  if (!built) {
    const config = getConfig();
    const { generator, settings } = generatorFromConfig(config, search.embedder);
    built = { generator, settings: Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) };
    globalForAsk.mnemoGenerators.set(key, built);
  }
  return built;
}

/** The ask context over a search context: its space's generator, the configured generation settings, the admin's thresholds. */
export async function askContextFor(database: Pick<Database, "prisma" | "sql">, search: SearchContext): Promise<AskContext> {
  const { generator, settings } = generatorFor(search);
  const prompts = await database.prisma.section.findMany({ where: { answerPrompt: { not: null } }, select: { slug: true, answerPrompt: true } });
  // Thresholds an admin set from the score distribution override the defaults (answerSettings).
  const overrides = await readAskThresholdOverrides(database.sql);
  return {
    ...search,
    generator,
    settings: { ...settings, ...overrides, sectionPrompts: Object.fromEntries(prompts.map((section) => [section.slug, section.answerPrompt!])) },
  };
}

/** The ask context in the active space; app code takes it from the runtime (lib/runtime.ts). */
export async function getAskContext(): Promise<AskContext> {
  return askContextFor(await getDatabase(), await getSearchContext());
}
