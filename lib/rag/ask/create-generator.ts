import "server-only";
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

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

function numberFrom(env: Environment, name: string, check: (value: number) => boolean, what: string): number | undefined {
  const raw = present(env[name]);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw new Error(`${name}: must be ${what}, got "${raw}"`);
  return value;
}

/**
 * The answer generator from MNEMO_GENERATOR (extractive | openai-compatible | anthropic, default
 * extractive) and MNEMO_LLM_*; a bad value throws an error naming the variable.
 */
export function generatorFromEnv(env: Environment, embedder: Embedder): { generator: Generator; settings: GenerationSettings } {
  const kind = present(env.MNEMO_GENERATOR) ?? "extractive";
  const settings: GenerationSettings = {
    temperature: numberFrom(env, "MNEMO_LLM_TEMPERATURE", (value) => value >= 0 && value <= 2, "a number from 0 to 2"),
    maxTokens: numberFrom(env, "MNEMO_LLM_MAX_TOKENS", (value) => Number.isInteger(value) && value > 0 && value <= 32_000, "a whole number from 1 to 32000"),
    systemPrompt: present(env.MNEMO_LLM_SYSTEM_PROMPT),
  };
  if (kind === "extractive") return { generator: createExtractiveGenerator({ embedder }), settings };
  if (kind !== "openai-compatible" && kind !== "anthropic") throw new Error(`MNEMO_GENERATOR: must be extractive, openai-compatible or anthropic, got "${kind}"`);
  const baseUrl = present(env.MNEMO_LLM_BASE_URL) ?? (kind === "anthropic" ? "https://api.anthropic.com" : undefined);
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) throw new Error("MNEMO_LLM_BASE_URL: an http(s) URL is required for this generator");
  const model = present(env.MNEMO_LLM_MODEL);
  if (!model) throw new Error("MNEMO_LLM_MODEL: the model name is required for this generator");
  const options = {
    baseUrl,
    model,
    apiKey: present(env.MNEMO_LLM_API_KEY),
    timeoutMs: numberFrom(env, "MNEMO_LLM_TIMEOUT_MS", (value) => Number.isInteger(value) && value > 0, "a positive whole number"),
  };
  return { generator: kind === "anthropic" ? createAnthropicGenerator(options) : createOpenAiCompatibleGenerator(options), settings };
}

/** MNEMO_ASK_MIN_SIMILARITY, MNEMO_ASK_STRONG_SIMILARITY, MNEMO_ASK_MIN_TERM_COVERAGE. */
export function askThresholdsFromEnv(env: Environment): { minSimilarity?: number; strongSimilarity?: number; minTermCoverage?: number } {
  const unit = (value: number) => value >= -1 && value <= 1;
  return {
    minSimilarity: numberFrom(env, "MNEMO_ASK_MIN_SIMILARITY", unit, "a number from -1 to 1"),
    strongSimilarity: numberFrom(env, "MNEMO_ASK_STRONG_SIMILARITY", unit, "a number from -1 to 1"),
    minTermCoverage: numberFrom(env, "MNEMO_ASK_MIN_TERM_COVERAGE", (value) => value >= 0 && value <= 1, "a number from 0 to 1"),
  };
}
