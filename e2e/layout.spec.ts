import { type Page, expect, test } from "@playwright/test";
import { researcherAsksUntilCited } from "./helpers";

/**
 * Layout at a desktop, a small laptop and a phone width: the Ask panel docks beside the page
 * (which reflows) and never covers the passage a citation opens; on a phone, following a
 * citation closes the panel, and the record list's results start on the first screen, its
 * filters folded into a drawer. Screenshots of each are attached to the report.
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
