import { expect, type Page, test } from "@playwright/test";
import { signIn, researcherAsksUntilCited } from "./helpers";

/**
 * The archive as a researcher meets it: every section, the object catalogues among them, in the
 * default hybrid mode. A paraphrased English question must find the Spanish or Catalan
 * testimony in the first three rows although catalogue entries compete for them, and a question
 * in the ask panel must be answered from the right interview.
 */
const titles = (page: Page) => page.locator("table tbody th > a[href^='/records/']").allTextContents();

async function topTitles(page: Page, query: string): Promise<string[]> {
  await page.goto(`/records?q=${encodeURIComponent(query)}`);
  await expect(page.getByRole("status")).toContainText("best matches");
  return (await titles(page)).slice(0, 3);
}

test("paraphrased English questions find the Catalan and Spanish testimonies among every section's records", async ({ page }) => {
  // Run alone, this test waits for the whole small demo to be indexed (catalogues included).
  test.setTimeout(540_000);
  await signIn(page, "researcher");
  const cases = [
    { query: "the bells were carried on a lorry wrapped in straw", title: "Les campanes de Sant Romà" },
    { query: "women mending nets in the harbour", title: "Remendar redes en el muelle" },
  ];
  // The demo is indexed in the background after start-up (catalogues included): wait for it.
  await expect(async () => {
    expect(await topTitles(page, cases[0]!.query)).toContain(cases[0]!.title);
  }).toPass({ timeout: 420_000, intervals: [5_000] });
  // No section filter: catalogue sections are searched too.
  await page.goto(`/records?q=${encodeURIComponent(cases[1]!.query)}`);
  await expect(page.getByLabel("Section")).toHaveValue("");
  for (const { query, title } of cases) expect(await topTitles(page, query), query).toContain(title);
});

test("an English question is answered with a citation of the Catalan interview that tells it", async ({ page }) => {
  test.setTimeout(420_000);
  const { panel } = await researcherAsksUntilCited(page, "/records", "When were the church bells of Sant Romà lowered?", "Les campanes de Sant Romà");
  await expect(panel.getByTestId("answer").last()).toHaveAttribute("data-status", "answered");
});
