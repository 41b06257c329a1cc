import { type Page, expect, test } from "@playwright/test";
import { researcherAsksUntilCited, signIn } from "./helpers";

/**
 * Layout at a desktop, a small laptop and a phone width: the Ask panel docks beside the page
 * (which reflows) and never covers the passage a citation opens; on a phone, following a
 * citation closes the panel, and the record list's results start on the first screen, its
 * filters folded into a drawer; after a search the first result is on the first screen at a
 * laptop's and a phone's size. Screenshots of each are attached to the report.
 */
const question = "How did Andrés clean the silver coin he found in the mud?";

async function attachScreenshot(page: Page, name: string): Promise<void> {
  await test.info().attach(name, { body: await page.screenshot({ fullPage: false }), contentType: "image/png" });
}

for (const width of [1440, 1024]) {
  test(`at ${width} px the Ask panel docks beside the page and never covers the cited passage`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width, height: 900 });
    const { panel, citation } = await researcherAsksUntilCited(page, "/records?section=oral-histories", question, "La moneda del pantano");
    // The list reflowed: nothing of the main content lies under the open panel.
    const panelBox = (await panel.boundingBox())!;
    const mainBox = (await page.locator("main").boundingBox())!;
    expect(mainBox.x + mainBox.width).toBeLessThanOrEqual(panelBox.x + 1);
    await citation.last().click();
    await page.waitForURL(/passage=/);
    const passage = page.getByTestId("cited-passage");
    await expect(passage).toBeInViewport();
    await expect(panel).toBeVisible();
    const passageBox = (await passage.boundingBox())!;
    expect(passageBox.x + passageBox.width).toBeLessThanOrEqual(panelBox.x + 1);
    await attachScreenshot(page, `cited passage beside the panel at ${width} px`);
  });
}

test("on a 390 px phone the results come first, filters fold into a drawer, and a citation closes the panel", async ({ page }) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const { panel, citation } = await researcherAsksUntilCited(page, "/records?section=oral-histories", question, "La moneda del pantano");
  await citation.last().click();
  await page.waitForURL(/passage=/);
  await expect(panel).toBeHidden();
  await expect(page.getByTestId("cited-passage")).toBeInViewport();
  await attachScreenshot(page, "cited passage at 390 px");

  await page.goto("/records?q=harbour&mode=keyword&section=oral-histories");
  const drawer = page.getByTestId("filters-drawer");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText("Filters (1 set)")).toBeVisible();
  await expect(page.getByLabel("From year")).toBeHidden();
  // The first row of results is on the first screen.
  const firstRow = page.locator("table tbody tr").first();
  await expect(firstRow).toBeVisible();
  expect((await firstRow.boundingBox())!.y).toBeLessThan(844);
  await attachScreenshot(page, "results first at 390 px");
  // The drawer opens by keyboard and shows the filters.
  await drawer.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("From year")).toBeVisible();
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`at ${width}×${height} a search shows its first result on the first screen`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width, height });
    await signIn(page, "researcher");
    // A long question, a section chosen and a year set: the form at its fullest still leaves room.
    const question = "how the harbour cranes were moved when the port closed";
    // The first search may come before the index is built: ask again until it answers.
    const first = page.locator("table tbody tr").first().getByRole("link").first();
    await expect(async () => {
      await page.goto(`/records?q=${encodeURIComponent(question)}&section=oral-histories&from=1900`);
      await expect(first).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 300_000, intervals: [3_000] });
    const box = (await first.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    // On a laptop the search box shows the whole question.
    if (width >= 1024) {
      const input = page.getByLabel("Search the archive");
      expect(await input.evaluate((element: HTMLInputElement) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    // The summary of the search sits above the results, in their column, and names the filters in use.
    const summary = page.getByRole("status").filter({ hasText: "best match" });
    const summaryBox = (await summary.boundingBox())!;
    const results = (await page.locator("#results").boundingBox())!;
    expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(results.y);
    expect(summaryBox.x).toBeGreaterThanOrEqual(results.x - 1);
    await expect(page.getByTestId("active-filters")).toContainText("Section: Oral histories");
    await expect(page.getByTestId("active-filters")).toContainText("Years from 1900");
    // The rarely used filters are folded.
    await expect(page.getByLabel("From year")).toBeHidden();
    if (width >= 1024) {
      // Facets in a column beside the results.
      const facets = (await page.getByTestId("facets").boundingBox())!;
      expect(facets.x + facets.width).toBeLessThanOrEqual(results.x);
      expect(Math.abs(facets.y - summaryBox.y)).toBeLessThan(120);
      await expect(page.getByTestId("facets-drawer")).toHaveCount(0);
    } else {
      // A drawer on a phone, folded; it opens by keyboard.
      const drawer = page.getByTestId("facets-drawer");
      await expect(drawer.locator("summary")).toContainText("Narrow the list (2 chosen)");
      await expect(page.getByTestId("facets")).toBeHidden();
      await drawer.locator("summary").focus();
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("facets")).toBeVisible();
    }
    await attachScreenshot(page, `a search at ${width}×${height}`);
    // A chip removes its filter.
    await page.getByRole("link", { name: "Remove the filter Years from 1900" }).click();
    await page.waitForURL((url) => !url.searchParams.has("from"));
    await expect(page.getByTestId("active-filters")).not.toContainText("Years");
    await expect(page.getByTestId("active-filters")).toContainText("Section: Oral histories");
  });
}
