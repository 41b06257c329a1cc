import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

/**
 * Scanned pages of the demo publications: the index worker reads them with OCR in the
 * background after the server starts (a few seconds a page), then the record page shows each
 * page image beside its text, and the page image is served only to readers of the record.
 */
test("a publication's scanned page is shown beside the text OCR read from it", async ({ page, request }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  const id = await firstRecordId(page, `section=publications&text=${encodeURIComponent("campanes sota")}`);
  const scanPage = page.getByTestId("scan-page").first();
  await expect(async () => {
    await page.goto(`/records/${id}`);
    await expect(scanPage).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 360_000, intervals: [5_000] });

  await expect(page.getByRole("heading", { name: /Scanned pages/ })).toBeVisible();
  await expect(scanPage).toContainText("Page 1");
  // The essay's opening words, as tesseract read them off the (JPEG) page.
  await expect(scanPage).toContainText("Hi ha pobles que desapareixen");
  const image = scanPage.getByRole("img", { name: /page 1/ });
  await expect(image).toBeVisible();
  // The page image loads lazily: bring it into view, then wait for its pixels.
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1748);

  // The page image travels with the session only: without it, the same not-found as a missing page.
  const source = (await image.getAttribute("src")) ?? "";
  expect((await page.request.get(source)).status()).toBe(200);
  expect((await page.request.get(source.replace(/page=1$/, "page=99"))).status()).toBe(404);
  expect((await request.get(source)).status()).not.toBe(200);
});
