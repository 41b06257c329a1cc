import { describe, expect, it } from "vitest";
import { voteCategorical } from "./characterise-math";
import { type RecordStatementsForRole, contradicts, judgeCategorical, judgeDate } from "./respect-statements";

const none: RecordStatementsForRole = { terms: [], date: null, periodSpans: new Map(), statedPeriod: null };
const stated = (from: number, to: number, text: string, approximate = false): RecordStatementsForRole["date"] => ({
  from,
  to,
  approximate,
  statements: [{ from, to, text, approximate, label: "Title" }],
});
const spans = new Map([
  ["byzantine", { from: 491, to: 1423 }],
  ["hellenistic", { from: -323, to: -31 }],
]);
const votes = (...pairs: [string, number][]) => voteCategorical(pairs.map(([value, weight]) => ({ value, weight })));

describe("judgeCategorical", () => {
  it("proposes a single stated term over the votes and flags a different winner", () => {
    const judged = judgeCategorical("typology", votes(["solidus", 0.7], ["stater", 0.3]), {
      ...none,
      terms: [{ value: "stater", text: "Stater", label: "Title" }],
    });
    expect(judged).toMatchObject({ value: "stater", confidence: 1, source: "stated", flag: { vote: "solidus", contradicts: "the title states “Stater”" } });
  });

  it("keeps an agreeing or unopposed vote as it is", () => {
    expect(judgeCategorical("typology", votes(["stater", 0.7]), { ...none, terms: [{ value: "Stater", text: "stater", label: "Title" }] })).toMatchObject({
      value: "Stater",
      flag: null,
    });
    expect(judgeCategorical("typology", votes(["solidus", 0.7], ["as", 0.3]), none)).toEqual({
      value: "solidus",
      confidence: 0.7,
      source: "votes",
      stated: null,
      flag: null,
    });
  });

  it("with several stated terms, proposes the best vote among them", () => {
    const terms = [
      { value: "drachm", text: "drachm", label: "Title" },
      { value: "tetradrachm", text: "tetradrachm", label: "Title" },
    ];
    expect(judgeCategorical("typology", votes(["obol", 0.5], ["tetradrachm", 0.3], ["drachm", 0.2]), { ...none, terms })).toMatchObject({
      value: "tetradrachm",
      confidence: 0.3,
      source: "votes",
      flag: { vote: "obol" },
    });
  });

  it("drops a period whose catalogued span excludes the stated date for the best consistent vote, or proposes nothing", () => {
    const statements = { ...none, date: stated(-323, -150, "323 BC - 150 BC"), periodSpans: spans };
    const judged = judgeCategorical("period", votes(["Byzantine", 0.72], ["Hellenistic", 0.28]), statements);
    expect(judged).toMatchObject({ value: "Hellenistic", confidence: 0.28, source: "votes", flag: { vote: "Byzantine" } });
    expect(judged.flag?.contradicts).toBe("the title states “323 BC - 150 BC”, outside Byzantine (catalogued AD 491 – 1423)");
    expect(judgeCategorical("period", votes(["Byzantine", 1]), statements)).toMatchObject({ value: null, source: null, flag: { vote: "Byzantine", share: 1 } });
    // A period without a catalogued span cannot contradict.
    expect(judgeCategorical("period", votes(["Medieval", 1]), statements)).toMatchObject({ value: "Medieval", flag: null });
  });
});

describe("judgeDate", () => {
  it("proposes the stated range and flags a disjoint vote", () => {
    const judged = judgeDate({ earliest: 40, latest: 200, central: 120, confidence: 0.6, voters: 5 }, { ...none, date: stated(218, 222, "AD 218 - AD 222") });
    expect(judged).toMatchObject({ value: { from: 218, to: 222 }, source: "stated", flag: { vote: { from: 40, to: 200 }, share: 0.6 } });
    expect(
      judgeDate({ earliest: 200, latest: 300, central: 250, confidence: 0.6, voters: 5 }, { ...none, date: stated(218, 222, "AD 218 - AD 222") }).flag,
    ).toBeNull();
  });

  it("tolerates ten years around an approximate statement", () => {
    expect(
      judgeDate({ earliest: 1935, latest: 1950, central: 1940, confidence: 1, voters: 2 }, { ...none, date: stated(1928, 1928, "ca. 1928", true) }).flag,
    ).toBeNull();
    expect(
      judgeDate({ earliest: 1939, latest: 1950, central: 1940, confidence: 1, voters: 2 }, { ...none, date: stated(1928, 1928, "ca. 1928", true) }).flag,
    ).not.toBeNull();
  });

  it("does not propose a date outside a stated period's span", () => {
    const judged = judgeDate(
      { earliest: 600, latest: 900, central: 700, confidence: 0.5, voters: 3 },
      { ...none, statedPeriod: "Hellenistic", periodSpans: spans },
    );
    expect(judged).toMatchObject({ value: null, flag: { contradicts: "the record states the period Hellenistic (catalogued 323 BC – 31 BC)" } });
  });
});

describe("contradicts", () => {
  it("measures a proposed value against the record's statements", () => {
    const statements = {
      ...none,
      date: stated(-323, -150, "323 BC - 150 BC"),
      periodSpans: spans,
      terms: [{ value: "stater", text: "Stater", label: "Title" }],
    };
    expect(contradicts("date", { from: 491, to: 829 }, statements)).toBe(true);
    expect(contradicts("date", { from: -359, to: 829 }, statements)).toBe(false);
    expect(contradicts("period", "Byzantine", { ...statements, terms: [] })).toBe(true);
    expect(contradicts("period", "Hellenistic", { ...statements, terms: [] })).toBe(false);
    expect(contradicts("typology", "solidus", statements)).toBe(true);
    expect(contradicts("typology", "stater", statements)).toBe(false);
    expect(contradicts("typology", null, statements)).toBe(false);
  });
});

describe("placeholders and terms outside the role's values", () => {
  it("never proposes a placeholder: neighbours voting one are no evidence, the best real value wins at its own share", () => {
    expect(judgeCategorical("typology", votes(["unidentified", 1]), none)).toEqual({ value: null, confidence: 0, source: null, stated: null, flag: null });
    expect(judgeCategorical("typology", votes(["unidentified", 0.6], ["as", 0.4]), none)).toEqual({
      value: "as",
      confidence: 0.4,
      source: "votes",
      stated: null,
      flag: null,
    });
    for (const placeholder of ["Unknown", "other", "n.a.", "N/A", "desconocido", "Sin identificar", "desconegut", "altres", "indeterminada"]) {
      expect(judgeCategorical("material", votes([placeholder, 0.9], ["bronze", 0.1]), none).value, placeholder).toBe("bronze");
    }
    // A placeholder is never a contradiction either.
    expect(contradicts("typology", "unidentified", { ...none, terms: [{ value: "stater", text: "Stater", label: "Title" }] })).toBe(false);
  });

  it("respects a stated term the role cannot take: nothing proposed, a real vote against it flagged, a placeholder vote ignored", () => {
    const statements = { ...none, terms: [{ value: "Quadrans", text: "quadrans", label: "Title", outside: true }] };
    expect(judgeCategorical("typology", votes(["unidentified", 1]), statements)).toEqual({
      value: null,
      confidence: 0,
      source: null,
      stated: { value: "Quadrans", sources: [{ label: "Title", text: "quadrans" }] },
      flag: null,
    });
    expect(judgeCategorical("typology", votes(["unidentified", 0.7], ["as", 0.3]), statements)).toMatchObject({
      value: null,
      stated: { value: "Quadrans" },
      flag: { vote: "as", share: 0.3, contradicts: "the title states “quadrans”" },
    });
  });
});
