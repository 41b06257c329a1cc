import { type Locator, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Facets on the record list: counts per section, project and decade for the list as it stands,
 * never counting a restricted record for someone outside its project, changing with the
 * query, and each a link that sets its filter.
 */
async function countOf(facets: Locator, name: RegExp): Promise<number> {
  const text = (await facets.getByRole("link", { name }).first().textContent()) ?? "";
  return Number(/\(([\d,]+)\)/.exec(text)?.[1]?.replaceAll(",", "") ?? "NaN");
}

test("facets count the reader's records, change with the query and set filters", async ({ page, browser }) => {
  await signIn(page, "researcher");
  await page.goto("/records");
  const facets = page.getByTestId("facets");
  await expect(facets).toBeVisible();
  await expect(facets).not.toContainText("Mine Closure");
  const oralHistories = await countOf(facets, /^Oral histories/);
  expect(oralHistories).toBeGreaterThan(1);
  await expect(facets.getByRole("list", { name: "Records per decade" }).getByRole("link").first()).toBeVisible();

  // A text filter narrows every count.
  await page.goto("/records?text=moneda");
  const narrowed = await countOf(facets, /^Oral histories/);
  expect(narrowed).toBeGreaterThan(0);
  expect(narrowed).toBeLessThan(oralHistories);

  // A facet value sets its filter; the chosen value links back to every section.
  await facets.getByRole("link", { name: /^Oral histories/ }).first().click();
  await expect(page).toHaveURL(/section=oral-histories/);
  await expect(facets.locator("a[aria-current='true']", { hasText: "Oral histories" })).toBeVisible();

  // The mine researcher counts the restricted project's testimonies; the researcher never did.
  const mineContext = await browser.newContext();
  const mine = await mineContext.newPage();
  await signIn(mine, "mineResearcher");
  await mine.goto("/records");
  await expect(mine.getByTestId("facets")).toContainText("Mine Closure");
  await mineContext.close();
});
