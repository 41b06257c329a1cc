import { describe, expect, it } from "vitest";
import { budgetMessage, createResearchBudget, maxTokensPerTurn } from "./research-budget";

const budgets = { maxTurns: 2, maxToolCalls: 3, maxSeconds: 10, maxTokens: 5000 };

describe("research budgets", () => {
  it("counts turns, tool calls, tokens and time, and names the first one spent", () => {
    let now = 1_000;
    const budget = createResearchBudget(budgets, () => now);
    expect(budget.beforeTurn()).toBeNull();
    budget.startTurn();
    budget.addUsage({ input: 1000, output: 200 });
    expect(budget.tokens).toBe(1200);
    expect(budget.turnMaxTokens()).toBe(Math.min(maxTokensPerTurn, 3800));
    expect([budget.takeToolCall(), budget.takeToolCall(), budget.takeToolCall(), budget.takeToolCall()]).toEqual([true, true, true, false]);
    expect(budget.toolCalls).toBe(3);
    budget.startTurn();
    expect(budget.beforeTurn()).toBe("turns");

    const tokens = createResearchBudget(budgets, () => now);
    tokens.addUsage({ input: 4000, output: 1000 });
    expect(tokens.beforeTurn()).toBe("tokens");
    expect(tokens.turnMaxTokens()).toBe(1);

    const time = createResearchBudget(budgets, () => now);
    now += 9_500;
    expect(time.remainingMs()).toBe(500);
    expect(time.beforeTurn()).toBeNull();
    now += 500;
    expect(time.beforeTurn()).toBe("time");
    expect(time.remainingMs()).toBe(0);
  });

  it("never counts negative usage a provider might report", () => {
    const budget = createResearchBudget(budgets);
    budget.addUsage({ input: -50, output: 10 });
    expect(budget.tokens).toBe(10);
  });

  it("names the budget and its variable in the message", () => {
    expect(budgetMessage("turns", budgets)).toMatch(/all 2 model turns \(MNEMO_RESEARCH_MAX_TURNS\)/);
    expect(budgetMessage("tool_calls", budgets)).toMatch(/all 3 tool calls \(MNEMO_RESEARCH_MAX_TOOL_CALLS\)/);
    expect(budgetMessage("time", budgets)).toMatch(/10 seconds \(MNEMO_RESEARCH_MAX_SECONDS\)/);
    expect(budgetMessage("tokens", budgets)).toMatch(/5000 tokens \(MNEMO_RESEARCH_MAX_TOKENS\)/);
  });
});
