import { expect, test } from "@playwright/test";
import { askUntilCited, openAskPanel, signIn } from "./helpers";

/**
 * Documents kept only as scans (the demo's notice, press cutting, leaflet and letter): the
 * index worker reads them with OCR in the background after the server starts (a few seconds a
 * page), and from then on their words are searchable, a hit or a citation opens the page
 * image with the searched words marked (not the whole page), and page images are served only to readers.
 */
test("a letter kept only as a scan is found by the words OCR read, and its page opens with them marked", async ({ page, request, browser }) => {
  test.setTimeout(480_000);
  await signIn(page, "researcher");
  // The letter's row (the Spanish interview on net mending may rank above it: the query is bridged).
  const hit = page.locator("tr", { has: page.getByRole("link", { name: /Letter from Gillian Hart/ }) }).getByTestId("search-hit");
  await expect(async () => {
    await page.goto(`/records?q=${encodeURIComponent("wooden needles")}&mode=keyword`);
    await expect(hit).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 360_000, intervals: [5_000] });
  await expect(hit).toContainText(/wooden needles/i);

  // The hit's page link opens the record at the passage, on its page image with its words marked.
  await hit.getByRole("link", { name: "p. 1" }).click();
  await page.waitForURL(/passage=/);
  const cited = page.getByTestId("cited-passage");
  await expect(cited).toContainText("wooden needles");
  await expect(cited).toContainText("p. 1");
  const citedImage = cited.getByRole("img", { name: /Scanned pages, page 1/ });
  await expect(citedImage).toBeVisible();
  await expect.poll(() => citedImage.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1748);
  // Only the searched words are marked on the page (the page is one passage: marking it would mark every word).
  await expect(cited.getByTestId("scan-word-mark").first()).toBeAttached();
  const markedWords = await cited.getByTestId("scan-word-mark").evaluateAll((marks) => marks.map((mark) => mark.getAttribute("data-word") ?? ""));
  expect(markedWords.length).toBeGreaterThanOrEqual(2);
  expect(markedWords.filter((word) => !/wooden|needle/i.test(word))).toEqual([]);
  await cited.getByRole("link", { name: "Page 1 with the text read from it" }).click();
  const scanPage = page.getByTestId("scan-page").first();
  await expect(scanPage).toContainText("Page 1");
  await expect(scanPage).toContainText("cited passage");
  await expect(scanPage).toContainText("Dear Margaret");

  // The page image travels with the session only: without it, the same not-found as a missing page.
  const source = (await citedImage.getAttribute("src")) ?? "";
  expect((await page.request.get(source)).status()).toBe(200);
  expect((await page.request.get(source.replace(/page=1$/, "page=99"))).status()).toBe(404);
  expect((await request.get(source)).status()).not.toBe(200);

  // Opened from a search with no cited passage, the page's text marks the search's words.
  await page.goto(`${new URL(page.url()).pathname}?q=${encodeURIComponent("Margaret")}`);
  await expect(
    page
      .getByTestId("scan-page")
      .first()
      .getByTestId("query-mark")
      .filter({ hasText: /^Margaret$/ })
      .first(),
  ).toBeVisible();

  // A question about the letter is answered from the scan; its citation opens the same page.
  const panel = await openAskPanel(page, page.url());
  await expect(panel.getByLabel("Answer from")).toHaveValue("record");
  const citation = panel.getByTestId("citation").filter({ hasText: "Letter from Gillian Hart" });
  await askUntilCited(panel, "What did the women mend the nets with?", citation);
  await citation.last().click();
  await page.waitForURL(/passage=/);
  await expect(page.getByTestId("cited-passage")).toContainText("needles");
  expect(await page.getByTestId("cited-passage").getByTestId("scan-word-mark").count()).toBeGreaterThan(0);

  // The restricted mine leaflet is read the same way: its reader finds it by the words on the
  // paper, and this researcher finds nothing of it.
  const leafletSearch = `/records?q=${encodeURIComponent("calcetines secos lampistería")}&mode=keyword`;
  const leaflet = "table a[href^='/records/']:has-text('Comunicado del comité de mujeres')";
  const other = await browser.newContext();
  const minePage = await other.newPage();
  await signIn(minePage, "mineResearcher");
  await expect(async () => {
    await minePage.goto(leafletSearch);
    await expect(minePage.locator(leaflet)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await other.close();
  await page.goto(leafletSearch);
  await expect(page.locator("main")).toContainText(/Nothing you can read matches|Search covers|match|Matches the words/);
  await expect(page.locator(leaflet)).toHaveCount(0);
});
