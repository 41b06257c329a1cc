import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * What a missing Debian package costs, said to the person who can act on it. The embedded e2e
 * server has every package; the real-PostgreSQL one is configured for an OCR language whose
 * package is not installed (E2E_MISSING_OCR_LANGUAGE, playwright.postgres.config.ts), as an
 * installation that wants a language it lacks is.
 */
const missingLanguage = process.env.E2E_MISSING_OCR_LANGUAGE;

test("with every package installed, nobody is told of a missing one", async ({ page }) => {
  test.skip(Boolean(missingLanguage), "this server lacks an OCR language");
  await signIn(page, "admin", "/records");
  await expect(page.getByRole("heading", { name: "Records", level: 1 })).toBeVisible();
  await expect(page.getByTestId("system-notice")).toHaveCount(0);
  const health = (await (await page.request.get("/api/health")).json()) as { ocr: { available: boolean } };
  expect(health.ocr.available).toBe(true);
});

test("an admin is told on every page what is missing and the command that installs it; a researcher what it costs, on the search page", async ({
  page,
  browser,
}) => {
  test.skip(!missingLanguage, "this server has every package");
  await signIn(page, "admin", "/records");
  for (const path of ["/records", "/admin", "/account/tokens"]) {
    await page.goto(path);
    const notice = page.getByTestId("system-notice");
    await expect(notice).toContainText("This installation is missing packages");
    await expect(notice).toContainText("Reading scans (tesseract): Scanned pages are kept unread");
    await expect(notice.locator("code")).toHaveText(`sudo apt-get install -y tesseract-ocr-${missingLanguage}`);
  }
  expect(((await (await page.request.get("/api/health")).json()) as { ocr: { missing: string[] } }).ocr.missing).toEqual([missingLanguage]);

  const researcherContext = await browser.newContext();
  const researcher = await researcherContext.newPage();
  await signIn(researcher, "researcher", "/records?q=bells");
  const notice = researcher.getByTestId("system-notice");
  await expect(notice).toContainText("Scanned pages are kept unread, so their text cannot be searched or cited.");
  await expect(notice).not.toContainText("apt-get");
  await expect(notice).not.toContainText("tesseract");
  await researcher.goto("/account/tokens");
  await expect(researcher.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(researcher.getByTestId("system-notice")).toHaveCount(0);
  await researcherContext.close();
});
