import { expect, type Page, test } from "@playwright/test";
import { openMoreFilters, signIn } from "./helpers";

/**
 * Search by meaning on the record list, and find-similar on a record page. The demo archive is
 * indexed in the background after the server starts, so the first test waits for it.
 */
const rows = (page: Page) => page.locator("table tbody tr");
const titles = (page: Page) => page.locator("table tbody th > a[href^='/records/']").allTextContents();

async function waitForIndexedTestimony(page: Page, url: string, title: string) {
  await expect(async () => {
    await page.goto(url);
    await expect(rows(page).filter({ hasText: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 300_000, intervals: [3_000] });
}

test("an English query finds a Catalan testimony by meaning, pinned into the list with filters and paging", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  const query = "the bells were carried on a lorry wrapped in straw";
  await waitForIndexedTestimony(page, `/records?q=${encodeURIComponent(query)}&mode=semantic&section=oral-histories`, "Les campanes de Sant Romà");

  // From the form, by keyboard: type the question, choose meaning, press Enter.
  await page.goto("/records");
  await page.getByLabel("Search the archive").fill(query);
  await page.getByLabel(/^Semantic/).check();
  await page.getByLabel("Section").selectOption({ label: "Oral histories" });
  await page.getByLabel("Search the archive").press("Enter");
  await page.waitForURL(/q=the\+bells/);
  expect(new URL(page.url()).searchParams.get("mode")).toBe("semantic");
  await expect(page.getByRole("status")).toContainText("best matches");
  const ranked = await titles(page);
  // The Catalan testimony (it never says "lorry" or "straw" in English) is among the first hits.
  expect(ranked.slice(0, 3)).toContain("Les campanes de Sant Romà");
  const hit = rows(page).filter({ hasText: "Les campanes de Sant Romà" }).getByTestId("search-hit");
  await expect(hit).toContainText("Found by meaning");
  // What the relevance means: a match strength read against the calibrated thresholds, explained.
  const strength = hit.getByTestId("match-strength");
  await expect(strength).toHaveAttribute("data-strength", /^(strong|good|weak)$/);
  await expect(strength).toContainText(/(Strong|Good|Weak) match/);
  await expect(strength).toHaveAttribute("title", /Similarity of meaning 0\.\d\d/);
  // The researcher cannot read the mine project: none of its testimonies is listed.
  for (const restricted of ["My brother's lamp", "Bread and socks down the shaft", "Cuarenta y dos días en el pozo", "Les xapes del tauler"]) {
    expect(ranked).not.toContain(restricted);
  }

  // A structured filter narrows the pinned hits; the order stays by relevance.
  await openMoreFilters(page);
  await page.getByLabel("From year").fill("2000");
  await page.getByLabel("To year").fill("2001");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForURL(/from=2000/);
  await expect(page.getByRole("status")).toContainText("within these filters");
  const filtered = await titles(page);
  expect(filtered).toContain("Les campanes de Sant Romà");
  expect(filtered.length).toBeLessThan(ranked.length);

  // Paging keeps the search: pages of three continue the same ranking.
  const base = `/records?q=${encodeURIComponent(query)}&mode=semantic&section=oral-histories`;
  await page.goto(`${base}&pageSize=10`);
  const ranking = await titles(page);
  await page.goto(`${base}&pageSize=3`);
  const pageOne = await titles(page);
  await page.getByRole("link", { name: "Next" }).click();
  await page.waitForURL(/page=2/);
  expect(new URL(page.url()).searchParams.get("q")).toBe(query);
  expect([...pageOne, ...(await titles(page))]).toEqual(ranking.slice(0, 6));
  // Sorting the hits by title keeps the same set.
  await page.goto(`${base}&pageSize=10&sort=title`);
  expect(await titles(page)).toEqual([...ranking].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
});

test("a search with no readable match says so, and an over-long query is refused with a clear message", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto("/records?q=xylophone+quasar+zeppelin&mode=keyword");
  await expect(page.getByText("Nothing you can read matches “xylophone quasar zeppelin”.")).toBeVisible();
  await page.goto(`/records?q=${"archive ".repeat(130)}`);
  await expect(page.locator(".notice-error")).toContainText("at most 1000 characters");
  // An empty query lists records as usual.
  await page.goto("/records?q=&mode=semantic");
  await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();
  await expect(page.getByTestId("search-hit")).toHaveCount(0);
});

test("find similar on a record page, and by one embed group", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  await waitForIndexedTestimony(page, "/records?q=Roser+Cases&mode=keyword&section=people", "Roser Cases i Mitjans");
  await rows(page).filter({ hasText: "Roser Cases i Mitjans" }).getByRole("link", { name: "Roser Cases i Mitjans" }).click();
  // Links from a search carry it (?q=) so the record page can mark its words.
  await page.waitForURL(/\/records\/[0-9a-f-]{36}(\?|$)/);
  const similar = page.getByTestId("similar-records");
  await expect(similar.getByRole("heading", { name: "Similar records" })).toBeVisible();
  const items = similar.locator("ol li a");
  await expect(items.first()).toBeVisible();
  expect(await items.allTextContents()).not.toContain("Roser Cases i Mitjans");

  await similar.getByRole("link", { name: "By profession" }).click();
  await page.waitForURL(/similar=/);
  await expect(similar.getByRole("link", { name: "By profession" })).toHaveAttribute("aria-current", "true");
  await expect(items.first()).toBeVisible();
  const first = (await items.first().textContent()) ?? "";
  await items.first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(first);
});
