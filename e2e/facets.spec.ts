import { type Locator, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Facets on the record list: counts per section, project, decade, language, media, person and
 * place for the list as it stands, never counting a restricted record (or naming a restricted
 * person) for someone outside its project, changing with the query, and each a link that sets
 * its filter; the decade histogram brushes a range; the unfiltered list opens on a mix.
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
  await facets
    .getByRole("link", { name: /^Oral histories/ })
    .first()
    .click();
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

test("language and person facets filter the list; a restricted narrator is never named; the decade histogram brushes a range", async ({ page, browser }) => {
  await signIn(page, "researcher");
  await page.goto("/records?section=oral-histories");
  const facets = page.getByTestId("facets");
  const language = facets.getByTestId("facet-language");
  const catalan = await countOf(language, /^Catalan/);
  expect(catalan).toBeGreaterThan(0);
  await language.getByRole("link", { name: /^Catalan/ }).click();
  await expect(page).toHaveURL(/language=ca/);
  await expect(page.locator("table tbody tr")).toHaveCount(catalan);
  await expect(language.locator("a[aria-current='true']", { hasText: "Catalan" })).toBeVisible();

  // The person facet names the narrators the researcher may read; the mine's never.
  await page.goto("/records?section=oral-histories");
  const person = facets.getByTestId("facet-person");
  // The most linked narrator of the small demo (three interviews), so always among the ten shown.
  await expect(person).toContainText("Marta Puig i Solé");
  await expect(page.locator("body")).not.toContainText("Susan Grau");
  const marta = await countOf(person, /^Marta Puig i Solé/);
  expect(marta).toBeGreaterThan(1);
  await person.getByRole("link", { name: /^Marta Puig i Solé/ }).click();
  await expect(page).toHaveURL(/person=/);
  await expect(page.locator("table tbody tr")).toHaveCount(marta);

  const mineContext = await browser.newContext();
  const mine = await mineContext.newPage();
  await signIn(mine, "mineResearcher");
  await mine.goto("/records?section=oral-histories");
  await expect(mine.getByTestId("facet-person")).toContainText("Susan Grau");
  await mineContext.close();

  // Brushing with the keyboard: Enter on one decade, then Shift+Enter two decades later.
  await page.goto("/records");
  const bars = facets.getByRole("list", { name: "Records per decade" }).getByRole("link");
  // The histogram renders with the facets after navigation: wait for it before counting.
  await expect(bars.nth(2)).toBeVisible();
  expect(await bars.count()).toBeGreaterThanOrEqual(3);
  const decadeOf = async (index: number) => Number(await bars.nth(index).getAttribute("data-decade"));
  const [first, third] = [await decadeOf(0), await decadeOf(2)];
  await bars.nth(0).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`from=${first}&to=${first + 9}`));
  await bars.nth(0).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(bars.nth(2)).toBeFocused();
  await page.keyboard.press("Shift+Enter");
  await expect(page).toHaveURL(new RegExp(`from=${first}&to=${third + 9}`));
  await expect(facets.getByTestId("decade-range")).toContainText(/^Years .+ to .+/);
  await expect(bars.nth(1)).toHaveAttribute("aria-current", "true");
});

test("the unfiltered list opens on a mix of sections, oral histories on the first page", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto("/records");
  await expect(page.getByTestId("mixed-order")).toContainText("Showing a mix of sections");
  await expect(page.locator("table tbody tr", { hasText: "Oral histories" }).first()).toBeVisible();
  await page.goto("/records?sort=title");
  await expect(page.getByTestId("mixed-order")).toHaveCount(0);
});
