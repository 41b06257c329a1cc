import type { ResearchBudgets } from "../../llm/research-model";
import type { ResearchBudgetName } from "./research-schemas";

/**
 * What one research run may spend — model turns, tool calls, wall time, and tokens (prompt plus
 * completion, as the provider reports them) — and what it has spent. Pure, with the clock
 * passed in.
 */
export interface ResearchBudget {
  readonly turns: number;
  readonly toolCalls: number;
  readonly tokens: number;
  /** The budget that forbids another model turn, if any. */
  beforeTurn(): ResearchBudgetName | null;
  startTurn(): void;
  /** Whether another tool call is allowed (counting it when it is). */
  takeToolCall(): boolean;
  addUsage(usage: { input: number; output: number }): void;
  remainingMs(): number;
  /** The most tokens the next turn may write. */
  turnMaxTokens(): number;
}

/** A turn's answer is never longer than this, whatever is left of the token budget. */
export const maxTokensPerTurn = 4096;

export function createResearchBudget(budgets: ResearchBudgets, now: () => number = Date.now): ResearchBudget {
  const started = now();
  let turns = 0;
  let toolCalls = 0;
  let tokens = 0;
  const remainingMs = () => Math.max(0, budgets.maxSeconds * 1000 - (now() - started));
  return {
    get turns() {
      return turns;
    },
    get toolCalls() {
      return toolCalls;
    },
    get tokens() {
      return tokens;
    },
    beforeTurn() {
      if (remainingMs() <= 0) return "time";
      if (tokens >= budgets.maxTokens) return "tokens";
      if (turns >= budgets.maxTurns) return "turns";
      return null;
    },
    startTurn() {
      turns += 1;
    },
    takeToolCall() {
      if (toolCalls >= budgets.maxToolCalls) return false;
      toolCalls += 1;
      return true;
    },
    addUsage(usage) {
      tokens += Math.max(0, usage.input) + Math.max(0, usage.output);
    },
    remainingMs,
    turnMaxTokens: () => Math.max(1, Math.min(maxTokensPerTurn, budgets.maxTokens - tokens)),
  };
}

export function budgetMessage(name: ResearchBudgetName, budgets: ResearchBudgets): string {
  const kept = "The steps so far are kept; ask a narrower question or try again.";
  switch (name) {
    case "turns":
      return `Research stopped before an answer: it used all ${budgets.maxTurns} model turns (MNEMO_RESEARCH_MAX_TURNS). ${kept}`;
    case "tool_calls":
      return `Research stopped before an answer: it used all ${budgets.maxToolCalls} tool calls (MNEMO_RESEARCH_MAX_TOOL_CALLS). ${kept}`;
    case "time":
      return `Research stopped before an answer: it ran out of its ${budgets.maxSeconds} seconds (MNEMO_RESEARCH_MAX_SECONDS). ${kept}`;
    case "tokens":
      return `Research stopped before an answer: the model used its ${budgets.maxTokens} tokens (MNEMO_RESEARCH_MAX_TOKENS). ${kept}`;
  }
}
