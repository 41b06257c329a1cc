import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { describeSavedSearch, normaliseSavedSearchParams, readSavedSearchParams, savedSearchHref } from "./saved-search-params";

function refusal(input: Record<string, unknown>): AppError {
  try {
    normaliseSavedSearchParams(input);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe("a saved search's params", () => {
  it("keeps the query, mode, filters and sort, trimmed, and never the page", () => {
    expect(
      normaliseSavedSearchParams({
        q: "  harbour strike ",
        mode: "keyword",
        section: " oral-histories ",
        project: "p1",
        field: "summary",
        text: " lamp ",
        from: "1950",
        to: "1960",
        sort: "-date",
        page: "3",
        pageSize: "50",
      }),
    ).toEqual({
      q: "harbour strike",
      mode: "keyword",
      section: "oral-histories",
      project: "p1",
      field: "summary",
      text: "lamp",
      from: "1950",
      to: "1960",
      sort: "-date",
    });
  });

  it("drops blanks, defaults and what means nothing without its partner", () => {
    // hybrid is the default mode; relevance the default order of a search.
    expect(normaliseSavedSearchParams({ q: "mine", mode: "hybrid", sort: "relevance", section: "   " })).toEqual({ q: "mine" });
    // title is the default order of a list without a search; a mode without a query means nothing.
    expect(normaliseSavedSearchParams({ mode: "semantic", sort: "title" })).toEqual({});
    // Without a search there is nothing to rank: the list orders "relevance" by title.
    expect(normaliseSavedSearchParams({ sort: "relevance" })).toEqual({});
    // The list searches a field only for text.
    expect(normaliseSavedSearchParams({ section: "notes", field: "summary" })).toEqual({ section: "notes" });
    // Unknown modes and sorts are what the list ignores.
    expect(normaliseSavedSearchParams({ q: "mine", mode: "psychic", sort: "random" })).toEqual({ q: "mine" });
  });

  it("writes the same search the same way however it arrived", () => {
    const a = normaliseSavedSearchParams({ q: "mine", from: "0950", to: " 1960", mode: "hybrid", page: "2" });
    const b = normaliseSavedSearchParams({ to: 1960, q: ["mine", "ignored"], from: "950", sort: "relevance" });
    expect(a).toEqual(b);
    expect(a).toEqual({ q: "mine", from: "950", to: "1960" });
    expect(savedSearchHref(a)).toBe(savedSearchHref(b));
  });

  it("refuses what the list would refuse, naming the field", () => {
    expect(refusal({ from: "2000", to: "1900" }).fieldErrors?.from?.[0]).toMatch(/start year must not be after the end year/);
    expect(refusal({ from: "nineteen fifty" }).fieldErrors?.from).toBeDefined();
    expect(refusal({ text: "x".repeat(201) }).fieldErrors?.text).toBeDefined();
    expect(refusal({ q: "x".repeat(1001) }).fieldErrors?.q?.[0]).toMatch(/at most 1000 characters/);
    expect(refusal({ q: "nul\u0000" }).fieldErrors?.q?.[0]).toMatch(/NUL/);
    expect(refusal({ section: { nested: true } }).fieldErrors?.section).toEqual(["Must be text."]);
    expect(refusal({ from: "1950", to: "1900" }).status).toBe(400);
  });

  it("links to the list's first page, parameters in the list's order", () => {
    expect(savedSearchHref({})).toBe("/records");
    expect(savedSearchHref({ sort: "-date", q: "a & b", section: "notes" })).toBe("/records?q=a+%26+b&section=notes&sort=-date");
  });

  it("reads stored params back as strings of kept names only", () => {
    expect(readSavedSearchParams({ q: "mine", page: "4", section: 7, evil: "x" })).toEqual({ q: "mine" });
    expect(readSavedSearchParams(null)).toEqual({});
    expect(readSavedSearchParams(["q"])).toEqual({});
  });

  it("says what a saved search shows in words", () => {
    expect(describeSavedSearch({})).toBe("Every record");
    expect(
      describeSavedSearch(
        { q: "strike", mode: "keyword", section: "oral", project: "p1", from: "1950", to: "1959", sort: "-date" },
        { section: () => "Oral histories", project: () => "Harbour" },
      ),
    ).toBe("“strike” by words · in Oral histories · project Harbour · years 1950–1959 · newest first");
    expect(describeSavedSearch({ field: "summary", text: "lamp", to: "1900" })).toBe("summary contains “lamp” · up to 1900");
  });
});
