import { describe, expect, it } from "vitest";
import { validateObjectContext } from "../../lib/rag/config/object-context";
import { ceramicsSection } from "./ceramics";
import { coinSection } from "./coins";
import { demoObjectContexts } from "./demo-object-contexts";
import { museumObjectSection } from "./museum-objects";

describe("the demo's object contexts", () => {
  const sections = [coinSection, ceramicsSection, museumObjectSection];
  const bySlug = new Map(sections.map((section) => [section.slug, { objectContext: demoObjectContexts[section.slug] ?? null }]));

  it.each(sections.map((section) => [section.slug, section] as const))("%s names real image, role and section fields", (slug, section) => {
    const result = validateObjectContext(demoObjectContexts[slug], section.fields, bySlug, slug);
    expect(result).toMatchObject({ ok: true });
  });

  it("refuses a context whose fields do not fit the section", () => {
    const result = validateObjectContext(
      {
        images: [
          { field: "title", view: "front" },
          { field: "nope", view: "x" },
        ],
        roles: { typology: "obverse", date: "title" },
        compareWith: ["coins", "people"],
      },
      coinSection.fields,
      bySlug,
      "coins",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.path)).toEqual(["images.0.field", "images.1.field", "roles.typology", "roles.date", "compareWith.1"]);
    expect(result.problems[0]?.message).toBe('"Title" is not an image field');
  });
});
