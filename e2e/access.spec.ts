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
  // Without a session the restricted recording is just as missing.
  const anonymous = await browser.newContext();
  const anonymousMedia = await anonymous.request.get(mediaSrc ?? "");
  expect(anonymousMedia.status()).toBe(404);
  expect(await anonymousMedia.text()).toBe(await missingMedia.text());
  await anonymous.close();

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

test("the media of a public project are served without a session, and nothing else is", async ({ browser }) => {
  test.setTimeout(120_000);
  const researcherContext = await browser.newContext();
  const page = await researcherContext.newPage();
  await signIn(page, "researcher");
  // A coin of Public Collections (public in the demo) and a recording of Harbour Trades (not public).
  const coinId = await firstRecordId(page, "section=coins&sort=title");
  await page.goto(`/records/${coinId}`);
  const coinImage = await page.locator("main img[src^='/api/media/']").first().getAttribute("src");
  const interviewId = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${interviewId}`);
  const recording = await page.getByTestId("player").getAttribute("src");
  await researcherContext.close();

  const anonymous = await browser.newContext();
  const image = await anonymous.request.get(coinImage ?? "");
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toMatch(/^image\//);
  expect(image.headers()["access-control-allow-origin"]).toBe("*");
  const missing = await anonymous.request.get("/api/media/00000000-0000-4000-8000-000000000000");
  const closed = await anonymous.request.get(recording ?? "");
  expect(closed.status()).toBe(404);
  expect(await closed.text()).toBe(await missing.text());
  // The app's pages still send a visitor to sign in.
  const record = await anonymous.newPage();
  await record.goto(`/records/${coinId}`);
  await expect(record).toHaveURL(/\/sign-in/);
  await anonymous.close();
});

test("an admin sees which projects are public and cannot publish a restricted one", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/people");
  await expect(page.locator("#public-collections")).toBeChecked();
  await expect(page.locator("#public-valley")).not.toBeChecked();
  await expect(page.locator("#public-mine")).toBeDisabled();
  const mine = page.getByRole("region", { name: /Mine Closure/ });
  await expect(mine.getByText("A restricted project cannot be public.")).toBeVisible();
});
