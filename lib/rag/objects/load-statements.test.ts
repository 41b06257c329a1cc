import { describe, expect, it } from "vitest";
import { resolveAliases, roleTermsIn } from "./load-statements";

const typologies = ["tetradrachm", "drachm", "obol", "stater", "as", "other", "unidentified"];

describe("a role's other names in the section's data", () => {
  // As the coins' Denomination field pairs with their Typology in the demo data.
  const aliases = resolveAliases([
    { term: "4 drachm (tetradrachm)", value: "tetradrachm", count: 20 },
    { term: "Diobol", value: "obol", count: 4 },
    { term: "Quadrans", value: "other", count: 1 },
    { term: "Unit", value: "stater", count: 2 },
    { term: "Unit", value: "obol", count: 1 },
    { term: "Unknown", value: "unidentified", count: 9 },
  ]);

  it("resolves a term to the one real role value catalogued with it, else to none", () => {
    expect(aliases.get("diobol")).toEqual({ term: "Diobol", value: "obol" });
    expect(aliases.get("quadrans")).toEqual({ term: "Quadrans", value: null });
    expect(aliases.get("unit")).toEqual({ term: "Unit", value: null });
    expect(aliases.has("unknown")).toBe(false);
  });

  it("states a resolved term as its role value, and a term the role cannot take as outside", () => {
    expect(roleTermsIn("Silver Diobol, Tarentum, 380 BC", typologies, aliases)).toEqual([{ value: "obol", text: "Diobol" }]);
    expect(roleTermsIn("RIC II Hadrian 688 (quadrans). 2004.14.120", typologies, aliases)).toEqual([{ value: "Quadrans", text: "quadrans", outside: true }]);
    // The role's own vocabulary is found as before; the longest term wins where they overlap.
    expect(roleTermsIn("Silver 4 drachm (tetradrachm), Athens", typologies, aliases)).toEqual([{ value: "tetradrachm", text: "4 drachm (tetradrachm)" }]);
    expect(roleTermsIn("Gold stater of Philip II", typologies, aliases)).toEqual([{ value: "stater", text: "stater" }]);
    // Placeholders are no terms to find.
    expect(roleTermsIn("Unknown bronze coin", typologies, aliases)).toEqual([]);
  });
});
