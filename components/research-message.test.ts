import { describe, expect, it } from "vitest";
import type { ResearchCitation, ResearchStreamEvent } from "@/lib/api/research/research-schemas";
import { researchScopeFor, scopesForPage } from "./chat-panel-client";
import { applyResearchEvent, describeArguments, emptyRun, researchCitationHref, researchEventOf } from "./research-message";

const citation = (chunkId: string | null, timeStart: number | null = null): ResearchCitation => ({
  id: "1",
  recordId: "11111111-1111-4111-8111-111111111111",
  recordTitle: "La moneda",
  section: "oral-histories",
  sectionName: "Oral histories",
  chunkId,
  location: "Transcript",
  language: "es",
  page: null,
  pageEnd: null,
  timeStart,
  timeEnd: null,
  url: "/records/11111111-1111-4111-8111-111111111111",
});

describe("a research run in the panel", () => {
  it("folds the stream: steps in order, the answer, then how it ended", () => {
    const events: ResearchStreamEvent[] = [
      { type: "start", model: "m", maxTurns: 8, maxToolCalls: 16, maxSeconds: 120, maxTokens: 60000, tools: ["semantic_search"] },
      { type: "step", index: 1, tool: "semantic_search", arguments: { query: "bells" }, summary: "2 hits", links: [], withheld: 0 },
      { type: "step", index: 2, tool: "read_record", arguments: { id: "x" }, summary: "not found", links: [], withheld: 0, error: "not_found" },
      { type: "answer", text: "They walked [1].", citations: [citation("c1")], dropped: [{ number: 2, reason: "quote_not_found" }] },
      { type: "done", status: "answered" },
    ];
    const run = events.reduce(applyResearchEvent, emptyRun());
    expect(run.steps.map((step) => step.tool)).toEqual(["semantic_search", "read_record"]);
    expect(run).toMatchObject({ status: "answered", answer: "They walked [1].", dropped: 1 });
    expect(run.citations).toHaveLength(1);
    expect(run.ending).toBeUndefined();
  });

  it("keeps a budget's or an error's message and ends with the stream's status", () => {
    const budget = [
      { type: "budget", budget: "tool_calls", message: "The run used its 16 tool calls." },
      { type: "done", status: "budget" },
    ] as const satisfies ResearchStreamEvent[];
    expect(budget.reduce(applyResearchEvent, emptyRun())).toMatchObject({
      status: "budget",
      ending: { budget: "tool_calls", message: "The run used its 16 tool calls." },
    });
    const failed = [
      { type: "error", message: "The model could not be reached." },
      { type: "done", status: "failed" },
    ] as const satisfies ResearchStreamEvent[];
    expect(failed.reduce(applyResearchEvent, emptyRun())).toMatchObject({ status: "failed", ending: { message: "The model could not be reached." } });
  });

  it("reads the stream's lines: events by their type, the framing's error line as an error, anything else skipped", () => {
    expect(researchEventOf({ type: "done", status: "answered" })).toEqual({ type: "done", status: "answered" });
    expect(researchEventOf({ type: "error", error: { code: "internal", message: "The database went away." } })).toEqual({
      type: "error",
      message: "The database went away.",
    });
    expect(researchEventOf({ type: "error", message: "The model could not be reached." })).toEqual({
      type: "error",
      message: "The model could not be reached.",
    });
    expect(researchEventOf({ type: "surprise" })).toBeUndefined();
    expect(researchEventOf("done")).toBeUndefined();
    expect(researchEventOf(null)).toBeUndefined();
  });

  it("describes a step's arguments by its query, else its first arguments", () => {
    expect(describeArguments({ query: "campanas", limit: 5 })).toBe("“campanas”");
    expect(describeArguments({ id: "abc", limit: 3 })).toBe("id: abc, limit: 3");
    expect(describeArguments(null)).toBe("");
    expect(describeArguments("x".repeat(400))).toHaveLength(160);
  });

  it("opens a passage at its passage and second, and a whole record at the record", () => {
    expect(researchCitationHref(citation("c1", 42.7), "bells")).toBe("/records/11111111-1111-4111-8111-111111111111?passage=c1&t=42&q=bells#cited-passage");
    expect(researchCitationHref(citation(null), "bells")).toBe("/records/11111111-1111-4111-8111-111111111111?q=bells");
  });
});

describe("research scopes", () => {
  it("maps the page's scopes to sections, projects and records, and offers no search-results scope", () => {
    const scopes = scopesForPage("/records", new URLSearchParams("q=bells&section=oral-histories&project=p1"));
    const mapped = Object.fromEntries(scopes.map((scope) => [scope.id, researchScopeFor(scope)]));
    expect(mapped).toEqual({
      "results:bells": undefined,
      all: {},
      "section:oral-histories": { sections: ["oral-histories"] },
      "project:p1": { projectIds: ["p1"] },
    });
    const record = scopesForPage("/records/11111111-1111-4111-8111-111111111111", new URLSearchParams());
    expect(researchScopeFor(record[0]!)).toEqual({ recordIds: ["11111111-1111-4111-8111-111111111111"] });
  });
});
