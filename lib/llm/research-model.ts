import type { Config } from "../config";
import { type Principal, isAdmin } from "../acl";
import { type ToolChatProvider, createAnthropicToolChat, createOpenAiToolChat } from "./tool-chat";

/**
 * Research mode's model and budgets from the configuration: MNEMO_RESEARCH_PROVIDER with
 * MNEMO_RESEARCH_BASE_URL, _MODEL and _API_KEY; unset, the answer model (MNEMO_LLM_*) when
 * MNEMO_GENERATOR is a chat model. The model is external (egress rules apply to what it reads)
 * unless MNEMO_RESEARCH_EXTERNAL=0 declares it inside the institution. Without either, research is unavailable, with the reason the
 * panel and the API show. A provider named without its model (or a research variable without a
 * provider) is a configuration error naming the variable, caught at start-up.
 */
export interface ResearchBudgets {
  maxTurns: number;
  maxToolCalls: number;
  maxSeconds: number;
  maxTokens: number;
}

export type ResearchModel =
  { available: true; provider: ToolChatProvider; budgets: ResearchBudgets } | { available: false; reason: string; budgets: ResearchBudgets };

/** What an administrator is told: how to set research mode up. */
export const researchUnavailableReason =
  "Research mode needs a chat model: set MNEMO_RESEARCH_PROVIDER (openai-compatible or anthropic), MNEMO_RESEARCH_BASE_URL and MNEMO_RESEARCH_MODEL, or configure MNEMO_GENERATOR with a chat model.";

/** What everyone else is told: what it means for them, not a setting they cannot change. */
export const researchNotSetUp =
  "Research mode is not set up on this installation (an administrator can set it up). Ask still answers from the archive, with citations.";

/** The reason research is unavailable, for the person reading it: the set-up only to an administrator. */
export function researchUnavailableFor(principal: Pick<Principal, "role">, reason: string): string {
  return isAdmin(principal) ? reason : researchNotSetUp;
}

export function researchBudgetsFromConfig(config: Config): ResearchBudgets {
  return {
    maxTurns: config.MNEMO_RESEARCH_MAX_TURNS,
    maxToolCalls: config.MNEMO_RESEARCH_MAX_TOOL_CALLS,
    maxSeconds: config.MNEMO_RESEARCH_MAX_SECONDS,
    maxTokens: config.MNEMO_RESEARCH_MAX_TOKENS,
  };
}

export function researchModelFromConfig(config: Config): ResearchModel {
  const budgets = researchBudgetsFromConfig(config);
  const own = config.MNEMO_RESEARCH_PROVIDER;
  if (!own) {
    for (const name of ["MNEMO_RESEARCH_BASE_URL", "MNEMO_RESEARCH_MODEL", "MNEMO_RESEARCH_API_KEY", "MNEMO_RESEARCH_EXTERNAL"] as const) {
      if (config[name]) throw new Error(`MNEMO_RESEARCH_PROVIDER: required when ${name} is set (openai-compatible or anthropic)`);
    }
  }
  const kind = own ?? (config.MNEMO_GENERATOR === "extractive" ? undefined : config.MNEMO_GENERATOR);
  if (!kind) return { available: false, reason: researchUnavailableReason, budgets };
  const baseUrl = (own ? config.MNEMO_RESEARCH_BASE_URL : config.MNEMO_LLM_BASE_URL) ?? (kind === "anthropic" ? "https://api.anthropic.com" : undefined);
  if (!baseUrl) throw new Error(`${own ? "MNEMO_RESEARCH_BASE_URL" : "MNEMO_LLM_BASE_URL"}: an http(s) URL is required for research mode's ${kind} model`);
  const model = own ? config.MNEMO_RESEARCH_MODEL : config.MNEMO_LLM_MODEL;
  if (!model) throw new Error(`${own ? "MNEMO_RESEARCH_MODEL" : "MNEMO_LLM_MODEL"}: the model name is required for research mode`);
  const apiKey = own ? config.MNEMO_RESEARCH_API_KEY : config.MNEMO_LLM_API_KEY;
  // Only a model configured for research may be declared inside the institution; the answer model stays external.
  const external = !own || (config.MNEMO_RESEARCH_EXTERNAL !== "0" && config.MNEMO_RESEARCH_EXTERNAL !== "false");
  const options = { baseUrl, model, apiKey, external };
  return { available: true, provider: kind === "anthropic" ? createAnthropicToolChat(options) : createOpenAiToolChat(options), budgets };
}

/** Whether research mode can run here, and if not why: what the Ask panel and the API say. */
export function researchAvailability(config: Config, reader: Pick<Principal, "role">): { available: true } | { available: false; reason: string } {
  let model: ResearchModel;
  try {
    model = researchModelFromConfig(config);
  } catch (error) {
    return {
      available: false,
      reason: researchUnavailableFor(reader, `Research mode is misconfigured: ${error instanceof Error ? error.message : String(error)}`),
    };
  }
  return model.available ? { available: true } : { available: false, reason: researchUnavailableFor(reader, model.reason) };
}
