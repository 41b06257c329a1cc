import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { researchAvailability, researchModelFromConfig, researchNotSetUp, researchUnavailableReason } from "./research-model";

const admin = { role: "admin" as const };

describe("research mode's model from the configuration", () => {
  it("is unavailable when no chat model is configured: how to set it up to an administrator, what it means to anyone else", () => {
    expect(researchAvailability(parseConfig({}), admin)).toEqual({ available: false, reason: researchUnavailableReason });
    expect(researchUnavailableReason).toMatch(/^Research mode needs a chat model: set MNEMO_RESEARCH_PROVIDER/);
    for (const role of ["researcher", "curator"] as const) {
      expect(researchAvailability(parseConfig({}), { role })).toEqual({ available: false, reason: researchNotSetUp });
      expect(researchAvailability(parseConfig({ MNEMO_RESEARCH_MODEL: "x" }), { role })).toEqual({ available: false, reason: researchNotSetUp });
    }
    expect(researchNotSetUp).not.toMatch(/MNEMO_|npm |set [A-Z]/);
  });

  it("uses its own provider, or falls back to the answer model", () => {
    const own = researchModelFromConfig(parseConfig({ MNEMO_RESEARCH_PROVIDER: "anthropic", MNEMO_RESEARCH_MODEL: "claude-x", MNEMO_RESEARCH_MAX_TURNS: "3" }));
    expect(own.available && { name: own.provider.name, model: own.provider.model, external: own.provider.external }).toEqual({
      name: "anthropic",
      model: "claude-x",
      external: true,
    });
    expect(own.budgets).toEqual({ maxTurns: 3, maxToolCalls: 16, maxSeconds: 120, maxTokens: 60_000 });
    const fallback = researchModelFromConfig(
      parseConfig({ MNEMO_GENERATOR: "openai-compatible", MNEMO_LLM_BASE_URL: "http://127.0.0.1:11434", MNEMO_LLM_MODEL: "llama" }),
    );
    expect(fallback.available && fallback.provider.name).toBe("openai-compatible");
    expect(
      researchAvailability(parseConfig({ MNEMO_GENERATOR: "openai-compatible", MNEMO_LLM_BASE_URL: "http://127.0.0.1:11434", MNEMO_LLM_MODEL: "llama" }), {
        role: "researcher",
      }),
    ).toEqual({ available: true });
  });

  it("treats the model as external, even on loopback, unless MNEMO_RESEARCH_EXTERNAL=0 declares its own model inside", () => {
    const base = { MNEMO_RESEARCH_PROVIDER: "openai-compatible", MNEMO_RESEARCH_BASE_URL: "http://127.0.0.1:11434", MNEMO_RESEARCH_MODEL: "qwen" };
    const external = (env: Record<string, string>) => {
      const model = researchModelFromConfig(parseConfig(env));
      return model.available && model.provider.external;
    };
    expect(external(base)).toBe(true);
    expect(external({ ...base, MNEMO_RESEARCH_EXTERNAL: "1" })).toBe(true);
    expect(external({ ...base, MNEMO_RESEARCH_EXTERNAL: "0" })).toBe(false);
    expect(external({ ...base, MNEMO_RESEARCH_PROVIDER: "anthropic", MNEMO_RESEARCH_EXTERNAL: "false" })).toBe(false);
    // The answer model borrowed for research stays external; the flag alone is half a configuration.
    expect(external({ MNEMO_GENERATOR: "openai-compatible", MNEMO_LLM_BASE_URL: "http://127.0.0.1:11434", MNEMO_LLM_MODEL: "llama" })).toBe(true);
    expect(() => researchModelFromConfig(parseConfig({ MNEMO_RESEARCH_EXTERNAL: "0" }))).toThrow(
      /^MNEMO_RESEARCH_PROVIDER: required when MNEMO_RESEARCH_EXTERNAL is set/,
    );
  });

  it("names the variable when the research model is half configured", () => {
    expect(() => researchModelFromConfig(parseConfig({ MNEMO_RESEARCH_MODEL: "x" }))).toThrow(
      /^MNEMO_RESEARCH_PROVIDER: required when MNEMO_RESEARCH_MODEL is set/,
    );
    expect(() => researchModelFromConfig(parseConfig({ MNEMO_RESEARCH_PROVIDER: "openai-compatible", MNEMO_RESEARCH_MODEL: "x" }))).toThrow(
      /^MNEMO_RESEARCH_BASE_URL/,
    );
    expect(() => researchModelFromConfig(parseConfig({ MNEMO_RESEARCH_PROVIDER: "openai-compatible", MNEMO_RESEARCH_BASE_URL: "http://127.0.0.1:1" }))).toThrow(
      /^MNEMO_RESEARCH_MODEL/,
    );
    expect(() => parseConfig({ MNEMO_RESEARCH_MAX_TURNS: "0" })).toThrow(/MNEMO_RESEARCH_MAX_TURNS/);
    expect(researchAvailability(parseConfig({ MNEMO_RESEARCH_MODEL: "x" }), admin)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/misconfigured: MNEMO_RESEARCH_PROVIDER/),
    });
  });
});
