import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

test("a forbidden record shows the same page as a missing one, and its media are not served", async ({ browser }) => {
  // Often the first test on a cold server: two sign-ins and several first renders.
  test.setTimeout(120_000);
  // The admin finds a record and its recording in the restricted mine project.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, "admin");
  await admin.goto("/records");
  const projectOptions = await admin.getByLabel("Project").locator("option").allTextContents();
  expect(projectOptions.some((name) => name.includes("Mine Closure"))).toBe(true);
  const mineProject = await admin.getByLabel("Project").locator("option", { hasText: "Mine Closure" }).getAttribute("value");
  const restrictedId = await firstRecordId(admin, `section=oral-histories&project=${mineProject}`);
  await admin.goto(`/records/${restrictedId}`);
  const mediaSrc = await admin.getByTestId("player").getAttribute("src");
  expect(mediaSrc).toMatch(/^\/api\/media\//);
  expect((await admin.request.get(mediaSrc ?? "")).status()).toBe(200);
  await adminContext.close();

  const researcherContext = await browser.newContext();
  const page = await researcherContext.newPage();
  await signIn(page, "researcher");
  const forbidden = await page.goto(`/records/${restrictedId}`);
  const forbiddenText = await page.locator("main").innerText();
  const missing = await page.goto("/records/00000000-0000-4000-8000-000000000000");
  const missingText = await page.locator("main").innerText();
  expect(forbidden?.status()).toBe(missing?.status());
  expect(forbidden?.status()).toBe(404);
  expect(forbiddenText).toBe(missingText);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();

  const deniedMedia = await page.request.get(mediaSrc ?? "");
  const missingMedia = await page.request.get("/api/media/00000000-0000-4000-8000-000000000000");
  expect(deniedMedia.status()).toBe(404);
  expect(await deniedMedia.text()).toBe(await missingMedia.text());

  // The restricted project does not appear in the researcher's filters or list.
  await page.goto("/records");
  const options = await page.getByLabel("Project").locator("option").allTextContents();
  expect(options.some((name) => name.includes("Mine Closure"))).toBe(false);
  await page.goto("/records?text=Alcarav%C3%AD&section=oral-histories");
  await expect(page.getByText("No records match these filters.")).toBeVisible();
  await researcherContext.close();
});

test("the mine researcher reads the restricted project", async ({ page }) => {
  await signIn(page, "mineResearcher");
  await page.goto("/records?section=oral-histories");
  await expect(page.locator("table tbody tr")).toHaveCount(4);
});
