import { expect, test } from "@playwright/test";
import { parseCsv } from "../lib/archive/import/parse-import-file";
import { signIn } from "./helpers";

/**
 * Exports for researchers: a searched list downloads as CSV with the page's rows in the page's
 * order, the people list with all their fields, and a record page's "Cite" link downloads RIS a
 * reference manager reads, a Spanish narrator with both family names.
 */
test("a researcher's search exports to CSV with the rows the page shows, in its order", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  const url = `/records?q=${encodeURIComponent("harbour fish auction")}&mode=keyword&pageSize=100`;
  // The demo is indexed in the background after the server starts: wait for hits.
  await expect(async () => {
    await page.goto(url);
    await expect(page.locator("table tbody tr").first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 300_000, intervals: [3_000] });
  const shown = await page
    .locator("table tbody th > a[href^='/records/']")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!.replace("/records/", "").split("?")[0]!));

  const exportLinks = page.getByTestId("export-links");
  await expect(exportLinks.getByRole("link", { name: "CSV", exact: true })).toHaveAttribute("href", /\/api\/records\/export\?format=csv&.*q=harbour/);
  const downloadPromise = page.waitForEvent("download");
  await exportLinks.getByRole("link", { name: "CSV", exact: true }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^records-\d{4}-\d{2}-\d{2}\.csv$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const table = parseCsv(Buffer.concat(chunks).toString("utf8"));
  expect(table.columns.slice(0, 3)).toEqual(["id", "url", "title"]);
  expect(table.columns).toContain("rank");
  // The page shows up to 100 rows: the export starts with exactly those, in the same order.
  expect(table.rows.slice(0, shown.length).map((row) => row[0])).toEqual(shown);
});

test("the people list exports all fields from the keyboard: birth, death and biography beside the listed columns", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto("/records?section=people&sort=title");
  const allFields = page.getByTestId("export-links").getByRole("link", { name: "All fields as CSV" });
  await expect(allFields).toHaveAttribute("href", /\/api\/records\/export\?format=csv&columns=all&.*section=people/);
  await allFields.focus();
  const downloadPromise = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const download = await downloadPromise;
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const table = parseCsv(Buffer.concat(chunks).toString("utf8"));
  expect(table.columns).toEqual(expect.arrayContaining(["title", "section", "Occupation", "Born", "Died", "Biography"]));
  const carmen = table.rows.find((row) => row[table.columns.indexOf("title")] === "Carmen Roldán Ortiz");
  expect(carmen?.[table.columns.indexOf("Biography")]).toBeTruthy();
  expect(carmen?.[table.columns.indexOf("Born")]).toBeTruthy();
});

test("a record page's Cite link downloads RIS for a reference manager", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto("/records?section=oral-histories");
  await page.locator("table tbody th > a[href^='/records/']").first().click();
  const cite = page.getByTestId("cite-links");
  await expect(cite).toContainText("Cite");
  const link = cite.getByRole("link", { name: "Download the citation as RIS" });
  await link.focus();
  const downloadPromise = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^record-[0-9a-f]{8}\.ris$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const ris = Buffer.concat(chunks).toString("utf8");
  expect(ris).toMatch(/^TY {2}- SOUND\r\n/);
  expect(ris).toMatch(/\r\nUR {2}- http[^\r]*\/records\/[0-9a-f-]{36}\r\n/);
  expect(ris.endsWith("ER  - \r\n")).toBe(true);

  // "Cite this page's records": the selection route answers for the page's records, and names a
  // missing id in its header rather than failing.
  await page.goto("/records?section=oral-histories");
  const ids = await page
    .locator("table tbody th > a[href^='/records/']")
    .evaluateAll((links) => links.slice(0, 3).map((item) => item.getAttribute("href")!.replace("/records/", "")));
  const missing = "00000000-0000-4000-8000-000000000000";
  const selection = await page.request.get(`/api/records/cite?format=bibtex&ids=${[...ids, missing].join(",")}`);
  expect(selection.status()).toBe(200);
  expect((await selection.text()).match(/^@\w+\{/gm)).toHaveLength(ids.length);
  expect(selection.headers()["mnemo-not-found"]).toContain(missing);
});

test("records selected across pages cite together in one file", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto("/records?section=oral-histories&sort=title&pageSize=5");
  const bar = page.getByTestId("selection-bar");
  await expect(bar.getByTestId("selection-count")).toHaveText("No records selected");
  const firstLink = page.locator("table tbody th > a[href^='/records/']").first();
  const firstId = (await firstLink.getAttribute("href"))!.replace("/records/", "");
  const firstTitle = (await firstLink.textContent())!.trim();
  await page.getByRole("checkbox", { name: `Select “${firstTitle}”` }).check();
  await expect(bar.getByTestId("selection-count")).toHaveText("1 selected");

  // Page 2 keeps the selection; "Select this page" adds its five records.
  await page.goto("/records?section=oral-histories&sort=title&pageSize=5&page=2");
  const secondPage = await page
    .locator("table tbody th > a[href^='/records/']")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!.replace("/records/", "")));
  expect(secondPage).not.toContain(firstId);
  await bar.getByRole("button", { name: "Select this page" }).click();
  await expect(bar.getByTestId("selection-count")).toHaveText(`${1 + secondPage.length} selected`);

  const downloadPromise = page.waitForEvent("download");
  await bar.getByRole("link", { name: "CSL-JSON" }).click();
  const download = await downloadPromise;
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const items = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { URL: string }[];
  expect(items.map((item) => item.URL.replace(/^.*\/records\//, ""))).toEqual([firstId, ...secondPage]);

  // Back on page 1 the first record is still ticked; clearing empties the selection.
  await page.goto("/records?section=oral-histories&sort=title&pageSize=5");
  await expect(page.getByRole("checkbox", { name: `Select “${firstTitle}”` })).toBeChecked();
  await bar.getByRole("button", { name: "Clear selection" }).click();
  await expect(bar.getByTestId("selection-count")).toHaveText("No records selected");
  await expect(page.getByRole("checkbox", { name: `Select “${firstTitle}”` })).not.toBeChecked();
});

test("a Spanish interview cites its narrator with both family names", async ({ page }) => {
  await signIn(page, "researcher");
  await page.goto(`/records?section=oral-histories&text=${encodeURIComponent("Remendar redes")}`);
  await page.locator("table tbody th > a[href^='/records/']").first().click();
  const ris = page.getByTestId("cite-links").getByRole("link", { name: "Download the citation as RIS" });
  const response = await page.request.get((await ris.getAttribute("href"))!);
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain("\r\nAU  - Roldán Ortiz, Carmen\r\n");
  const bibtex = await page.request.get(
    (await page.getByTestId("cite-links").getByRole("link", { name: "Download the citation as BibTeX" }).getAttribute("href"))!,
  );
  expect(await bibtex.text()).toMatch(/^@misc\{roldan\d*_[0-9a-f]{8},[\s\S]*author = \{\{Roldán Ortiz\}, Carmen\}/);
});
