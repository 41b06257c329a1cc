import { expect, test } from "@playwright/test";
import { signIn, waitForCoinProposals } from "./helpers";

/**
 * Objects: a curator has proposals made for the uncatalogued coins, opens one, sees its similar
 * coins and the typology proposal with its evidence, accepts it, and the record says so. The
 * demo's images are described by the background indexer after start, so the first step waits.
 */
test("a curator opens a coin, sees similar coins and a typology proposal, accepts it, and the record is updated", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "curator", "/review");
  const queue = await waitForCoinProposals(page);

  // A proposal the neighbours voted for (its confidence a percentage), not one the record's own
  // title states: which kind comes first depends on which images the indexer has described.
  const firstRow = queue
    .locator("tbody tr")
    .filter({ has: page.locator("td:nth-child(4)", { hasText: /^\d+%$/ }) })
    .first();
  const proposed = (await firstRow.getByTestId("queue-proposed-value").textContent())?.trim() ?? "";
  expect(proposed).not.toBe("");
  await firstRow.getByRole("link").click();
  await page.waitForURL(/\/records\/[0-9a-f-]{36}/);
  const recordUrl = page.url().split("#")[0] ?? "";

  // Similar coins, with thumbnails served through the access-checked media route.
  const similar = page.getByTestId("similar-objects");
  await expect(similar.getByTestId("similar-object").first()).toBeVisible();
  await expect(similar.getByTestId("similar-object").first().locator("img").first()).toHaveAttribute("src", /\/api\/media\/[0-9a-f-]{36}\?variant=thumb/);
  await similar.getByRole("link", { name: "Images only" }).click();
  await expect(similar.getByRole("link", { name: "Images only" })).toHaveAttribute("aria-current", "true");
  await expect(similar.getByTestId("similar-object").first()).toBeVisible();

  // The typology proposal: not catalogued yet, the stored proposal, its confidence and evidence.
  const typology = page.getByTestId("proposal-typology");
  await expect(typology).toContainText("Not catalogued yet");
  await expect(typology.getByTestId("proposed-value")).toHaveText(proposed);
  await expect(typology).toContainText("Supporting neighbours");
  await expect(page.getByTestId("proposal-date").getByTestId("period-chart")).toBeVisible();

  // A researcher sees the same proposal but has nothing to decide with.
  const researcher = await page.context().browser()?.newContext();
  if (!researcher) throw new Error("no browser");
  const researcherPage = await researcher.newPage();
  await signIn(researcherPage, "researcher", recordUrl.replace(/^https?:\/\/[^/]+/, ""));
  await expect(researcherPage.getByTestId("proposal-typology").getByTestId("proposed-value")).toHaveText(proposed);
  await expect(researcherPage.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  await researcher.close();

  // Accept: the value goes into the record through the normal save.
  await typology.getByRole("button", { name: `Accept ${proposed}` }).click();
  await expect(typology).toContainText(`Accepted: Typology is now ${proposed}.`);
  await page.reload();
  await expect(page.getByTestId("proposal-typology")).toContainText(`Catalogued: ${proposed}`);
  await expect(page.getByTestId("proposal-typology").getByTestId("decision-note")).toContainText("Accepted by Curator");
  const typologyField = page
    .locator("dl dt", { hasText: /^Typology$/ })
    .locator("xpath=following-sibling::dd[1]")
    .first(); // the record's field; the history below lists it again
  await expect(typologyField).toContainText(proposed);
  await expect(
    page
      .locator("dt", { hasText: /^Version$/ })
      .locator("xpath=following-sibling::dd[1]")
      .first(),
  ).toHaveText("2");

  // The queue no longer lists it, and the accuracy report counts the decision.
  await page.goto("/review");
  await expect(page.getByTestId("accuracy-report").getByRole("row", { name: /Typology/ })).toContainText("100%");
});

test("objects by description are matched on the catalogue text and say so", async ({ page }) => {
  await signIn(page, "researcher", "/objects");
  await page.getByLabel("Describe the object").fill("silver coin");
  await page.getByLabel("Describe the object").press("Enter");
  await expect(page.getByTestId("object-search-via")).toContainText("catalogue text");
  await expect(page.getByRole("heading", { name: /\d+ objects?/ })).toBeVisible();
  // Every card says what its match means, in the same terms as the record list.
  const cards = page.locator("main ol > li");
  const matches = page.getByTestId("object-match");
  await expect(matches.first()).toBeVisible();
  expect(await matches.count()).toBe(await cards.count());
  for (const text of await matches.allTextContents()) expect(text).toMatch(/^(Strong match|Good match|Weak match|Matches the words)$/);
});

test("an admin edits a collection's object context with validation; nobody else can open it", async ({ page, browser }) => {
  await signIn(page, "admin", "/admin/sections/ceramics/objects");
  await expect(page.getByRole("heading", { name: "Object context of Ceramics" })).toBeVisible();
  await expect(page.getByLabel("Typology")).toHaveValue("typology");
  await page.getByLabel("Near-duplicate floor").fill("3");
  await page.getByRole("button", { name: "Save object context" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The object context is not valid" })).toContainText("nearDuplicateFloor");
  await page.getByLabel("Near-duplicate floor").fill("0.95");
  await page.getByRole("button", { name: "Save object context" }).click();
  await expect(page.getByText(/Saved; \d+ records queued for indexing\./)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Near-duplicate floor")).toHaveValue("0.95");

  const curator = await browser.newContext();
  const curatorPage = await curator.newPage();
  await signIn(curatorPage, "curator", "/records");
  const response = await curatorPage.goto("/admin/sections/ceramics/objects");
  expect(response?.status()).toBe(404);
  await curator.close();
});
