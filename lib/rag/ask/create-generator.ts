import "server-only";
import { type Config, parseConfig } from "../../config";
import type { Embedder } from "../embed/embedder";
import { createAnthropicGenerator, createOpenAiCompatibleGenerator } from "../../llm/chat-generators";
import { createExtractiveGenerator } from "./extractive-generator";
import type { Generator } from "../../llm/generator";

type Environment = Record<string, string | undefined>;

export interface GenerationSettings {
  temperature?: number;
  maxTokens?: number;
  systemPrompt?: string;
}

/**
 * The answer generator from MNEMO_GENERATOR (extractive | openai-compatible | anthropic, default
 * extractive) and MNEMO_LLM_*; a missing endpoint or model throws an error naming the variable.
 */
export function generatorFromConfig(config: Config, embedder: Embedder): { generator: Generator; settings: GenerationSettings } {
  const kind = config.MNEMO_GENERATOR;
  const settings: GenerationSettings = {
    temperature: config.MNEMO_LLM_TEMPERATURE,
    maxTokens: config.MNEMO_LLM_MAX_TOKENS,
    systemPrompt: config.MNEMO_LLM_SYSTEM_PROMPT,
  };
  if (kind === "extractive") return { generator: createExtractiveGenerator({ embedder }), settings };
  const baseUrl = config.MNEMO_LLM_BASE_URL ?? (kind === "anthropic" ? "https://api.anthropic.com" : undefined);
  if (!baseUrl) throw new Error("MNEMO_LLM_BASE_URL: an http(s) URL is required for this generator");
  const model = config.MNEMO_LLM_MODEL;
  if (!model) throw new Error("MNEMO_LLM_MODEL: the model name is required for this generator");
  const options = { baseUrl, model, apiKey: config.MNEMO_LLM_API_KEY, timeoutMs: config.MNEMO_LLM_TIMEOUT_MS };
  return { generator: kind === "anthropic" ? createAnthropicGenerator(options) : createOpenAiCompatibleGenerator(options), settings };
}

/** The same from an environment map (scripts, tests). */
export function generatorFromEnv(env: Environment, embedder: Embedder): { generator: Generator; settings: GenerationSettings } {
  return generatorFromConfig(parseConfig(env), embedder);
}
