import { describe, expect, it } from "vitest";
import { decadeLabel, mostLinked } from "./record-facets";
import { decadeChosen, decadeOf, decadeSpan, defaultRecordSort, recordListHref } from "./record-list-params";

describe("the record list's default order", () => {
  it("is relevance with a search, a mix of sections with nothing chosen, title with any filter", () => {
    expect(defaultRecordSort({ q: "bells", section: "oral-histories" })).toBe("relevance");
    expect(defaultRecordSort({})).toBe("mixed");
    expect(defaultRecordSort({ q: "  ", page: "3", pageSize: "50", mode: "keyword" })).toBe("mixed");
    for (const filter of ["section", "project", "text", "from", "to", "language", "media", "person", "place"] as const) {
      expect(defaultRecordSort({ [filter]: "x" })).toBe("title");
    }
  });
});

describe("recordListHref", () => {
  it("applies changes and drops blanks", () => {
    expect(recordListHref({ section: "people", page: "2" }, { page: undefined, from: "1950", to: "" })).toBe("/records?section=people&from=1950");
    expect(recordListHref({})).toBe("/records");
    expect(recordListHref({ text: "a&b" })).toBe("/records?text=a%26b");
  });
});

describe("decades", () => {
  it("hold their years, BC too", () => {
    expect(decadeOf(1965)).toBe(1960);
    expect(decadeOf(1960)).toBe(1960);
    expect(decadeOf(-325)).toBe(-330);
    expect(decadeLabel(1960)).toBe("1960s");
    expect(decadeLabel(-330)).toBe("330s BC");
  });

  it("span from one brushed decade to another in either order", () => {
    expect(decadeSpan(1970, 1950)).toEqual({ from: 1950, to: 1979 });
    expect(decadeSpan(1950, 1950)).toEqual({ from: 1950, to: 1959 });
    expect(decadeSpan(-330, -310)).toEqual({ from: -330, to: -301 });
  });

  it("are chosen when they overlap the years", () => {
    expect(decadeChosen(1950, undefined, undefined)).toBe(false);
    expect(decadeChosen(1950, 1955, 1972)).toBe(true);
    expect(decadeChosen(1970, 1955, 1972)).toBe(true);
    expect(decadeChosen(1980, 1955, 1972)).toBe(false);
    expect(decadeChosen(1940, 1955, undefined)).toBe(false);
    expect(decadeChosen(1990, undefined, 1995)).toBe(true);
  });
});

describe("mostLinked", () => {
  const rows = Array.from({ length: 14 }, (_, index) => ({ value: `p${index}`, label: `Person ${index}`, count: 20 - index }));

  it("keeps the most linked and says how many there are", () => {
    const facet = mostLinked(rows, undefined, 10);
    expect(facet.values.map((value) => value.value)).toEqual(rows.slice(0, 10).map((row) => row.value));
    expect(facet.distinct).toBe(14);
  });

  it("keeps the chosen one wherever it ranks, once", () => {
    expect(mostLinked(rows, "p12", 10).values.at(-1)).toEqual(rows[12]);
    expect(mostLinked(rows, "p12", 10).values).toHaveLength(11);
    expect(mostLinked(rows, "p3", 10).values).toHaveLength(10);
    expect(mostLinked(rows, "missing", 10).values).toHaveLength(10);
  });
});
