import { describe, expect, it } from "vitest";
import { searchConfigOf, searchConfigSql, titleTermsOf } from "./search-configs";

describe("search configurations", () => {
  it("indexes English and Spanish with their stemmers and every other language as written", () => {
    expect(searchConfigOf("en")).toBe("english");
    expect(searchConfigOf("es")).toBe("spanish");
    expect(searchConfigOf("ca")).toBe("simple");
    expect(searchConfigOf(null)).toBe("simple");
    expect(searchConfigSql("c.language")).toContain("WHEN 'es' THEN 'spanish'");
    expect(() => searchConfigSql("c.language; DROP TABLE chunks")).toThrow(/unsafe/);
  });

  it("adds the record's title to a passage's words only when the passage does not already carry it", () => {
    expect(titleTermsOf("Les campanes de Sant Romà", "Les baixàrem amb el camió de la palla.")).toBe("Les campanes de Sant Romà");
    expect(titleTermsOf("Glazed jug", "Title: Glazed jug\nMaterial: earthenware")).toBe("");
    expect(titleTermsOf("GLAZED JUG", "Title: Glazed jug")).toBe("");
    expect(titleTermsOf("  Tide table ", "High water at dawn.")).toBe("Tide table");
    expect(titleTermsOf("   ", "Anything.")).toBe("");
  });
});
