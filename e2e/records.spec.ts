import { expect, test } from "@playwright/test";
import { firstRecordId, openMoreFilters, signIn } from "./helpers";

test("filters and pages the record list, with the state in the URL", async ({ page }) => {
  await signIn(page, "researcher");
  await page.getByLabel("Section").selectOption("coins");
  await openMoreFilters(page);
  await page.getByLabel("Per page").selectOption("10");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/section=coins/);
  await expect(page).toHaveURL(/pageSize=10/);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination).toContainText("Page 1 of 12 · 120 records");
  await expect(page.locator("table tbody tr")).toHaveCount(10);
  const firstPageTitles = await page.locator("table tbody tr a[href^='/records/']").allTextContents();

  await pagination.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pagination).toContainText("Page 2 of 12");
  const secondPageTitles = await page.locator("table tbody tr a[href^='/records/']").allTextContents();
  expect(firstPageTitles).toHaveLength(10);
  expect(secondPageTitles).toHaveLength(10);
  expect(secondPageTitles.filter((title) => firstPageTitles.includes(title))).toEqual([]);

  // A reload keeps everything: the URL is the state.
  await page.reload();
  await expect(pagination).toContainText("Page 2 of 12");
  await expect(page.getByLabel("Section")).toHaveValue("coins");

  // Text in a field, and a date range.
  await page.goto("/records?section=oral-histories&text=Sant%20Rom%C3%A0");
  await expect(page.locator("table tbody tr").first()).toBeVisible();
  await page.goto("/records?section=coins&from=-500&to=-300&sort=date");
  const dates = await page.locator("table tbody tr").count();
  expect(dates).toBeGreaterThan(0);
  await page.goto("/records?from=1900&to=1800");
  await expect(page.getByText("The start year must not be after the end year.")).toBeVisible();
  await page.goto("/records?section=no-such-section");
  await expect(page.getByText('There is no section called "no-such-section".')).toBeVisible();
  await page.goto("/records?text=zzzz-no-record-has-this");
  await expect(page.getByText("No records match these filters.")).toBeVisible();
});

test("a transcript opened at ?t= starts the player at that second, and clicking a turn seeks", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${id}?t=30`);
  const player = page.getByTestId("player");
  await expect(player).toBeVisible();
  await expect.poll(async () => player.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThanOrEqual(30);
  const at = await player.evaluate((element: HTMLMediaElement) => element.currentTime);
  expect(at).toBeLessThan(34);

  const turns = page.locator("[aria-current], section button").filter({ hasText: /\d:\d\d/ });
  const third = turns.nth(2);
  const timecode = (await third.textContent())?.match(/(\d+):(\d\d)/);
  expect(timecode).toBeTruthy();
  const seconds = Number(timecode?.[1]) * 60 + Number(timecode?.[2]);
  await third.click();
  await expect.poll(async () => player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeGreaterThanOrEqual(seconds);
});

test("a curator edits a record and the change is saved with a new version", async ({ page }) => {
  await signIn(page, "curator");
  const id = await firstRecordId(page, "section=places");
  await page.goto(`/records/${id}`);
  // Other specs may have saved this record already (record-history.spec edits it): the save adds one.
  const versionBefore = Number((await page.getByText("Version", { exact: true }).locator("..").textContent())?.replace(/\D/g, ""));
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/records/${id}/edit`));
  const newName = `Renamed place ${Date.now()}`;
  await page.getByLabel("Name").fill(newName);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/records/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newName);
  await expect(page.getByText("Version", { exact: true }).locator("..")).toHaveText(new RegExp(`^\\s*Version\\s*${versionBefore + 1}\\s*$`));

  // An invalid value is refused by the server under its field and nothing is saved (browser
  // validation is switched off, as a script posting the form would).
  await page.goto(`/records/${id}/edit`);
  await page
    .locator("form")
    .last()
    .evaluate((form: HTMLFormElement) => {
      form.noValidate = true;
    });
  await page.getByLabel("Name").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Name is required").first()).toBeVisible();
  await page.goto(`/records/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newName);
});

test("a researcher cannot edit: no edit button, and the edit page says so", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=places");
  await page.goto(`/records/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await page.goto(`/records/${id}/edit`);
  await expect(page.getByText("You may read this record but not edit it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
});

test("a curator creates a record with an image, a bad upload is refused, and the record is deleted after confirming", async ({ page }) => {
  await signIn(page, "curator");
  await page.goto("/records/new?section=ceramics");
  const title = `E2E jug ${Date.now()}`;
  await page.getByLabel("Project").selectOption({ label: "Public Collections" });
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Typology").selectOption("jug");
  await page.getByLabel("Period").selectOption("Medieval");
  await page.getByLabel("Material").selectOption("glazed earthenware");

  // A text file named like an image is refused under its field, and nothing is created.
  await page.getByLabel("Profile drawing").setInputFiles({ name: "profile.png", mimeType: "image/png", buffer: Buffer.from("not really a png") });
  await page.getByRole("button", { name: "Create record" }).click();
  await expect(page.getByText(/This file type is not supported/).first()).toBeVisible();
  await page.goto(`/records?text=${encodeURIComponent(title)}`);
  await expect(page.getByText("No records match these filters.")).toBeVisible();

  await page.goto("/records/new?section=ceramics");
  await page.getByLabel("Project").selectOption({ label: "Public Collections" });
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Typology").selectOption("jug");
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAKElEQVQ4jWPYUhFAFcQwatCW0TDaMpqOKkazSMVoMRIwWkIGDGQtAgBHWVcu3u6QUQAAAABJRU5ErkJggg==",
    "base64",
  );
  await page.getByLabel("Profile drawing").setInputFiles({ name: "profile.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Create record" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const image = page.locator("img[src^='/api/media/']").first();
  await expect(image).toBeVisible();
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(24);

  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog")).toContainText(`Delete “${title}”?`);
  await page.getByRole("button", { name: "Delete record" }).click();
  await expect(page).toHaveURL(/\/records$/);
  await page.goto(`/records?text=${encodeURIComponent(title)}`);
  await expect(page.getByText("No records match these filters.")).toBeVisible();
});
