import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Bulk import through the /import page (issue 18): an admin uploads a small CSV of places with
 * one bad row, checks it (the dry run names the row and writes nothing), imports the valid rows
 * and follows the job to done, then imports the same file again: the external id column makes
 * the second run update nothing and create nothing. A curator imports objects whose photos come
 * in a zip. A researcher gets the not-found page.
 */
const placesCsv = fileURLToPath(new URL("../tests/fixtures/import/places.csv", import.meta.url));

async function uploadAndCheck(page: Page) {
  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Import file" });
  await form.getByLabel("Section").selectOption({ label: "Places" });
  await form.getByLabel("Project").selectOption({ label: "Public Collections" });
  await form.getByLabel(/^File/).setInputFiles(placesCsv);
  await form.getByRole("button", { name: "Preview" }).click();

  const mapping = page.getByRole("region", { name: "Preview and mapping" });
  await expect(mapping.getByTestId("import-preview")).toContainText("Molí de la Riera");
  // The suggested mapping: every column matched by name, ID as the external id.
  await expect(mapping.getByLabel("Field for column Kind")).toHaveValue("kind");
  await expect(mapping.getByLabel("External id column")).toHaveValue("ID");
  await mapping.getByRole("button", { name: "Check (dry run)" }).click();
  const result = page.getByTestId("import-dry-run");
  await expect(result.getByRole("heading", { name: "Check result" })).toBeFocused();
  return result;
}

test("a column that matches no field is ignored with a note and the check goes ahead; an object-number column is the external id", async ({ page }) => {
  await signIn(page, "admin", "/import");
  const file = join(mkdtempSync(join(tmpdir(), "mnemo-e2e-import-")), "places-with-colour.csv");
  writeFileSync(file, "Object number,Name,Kind,Colour\nimport-colour-1,Mas del Colorista,village,red\n");
  const form = page.getByRole("form", { name: "Import file" });
  await form.getByLabel("Section").selectOption({ label: "Places" });
  await form.getByLabel("Project").selectOption({ label: "Public Collections" });
  await form.getByLabel(/^File/).setInputFiles(file);
  await form.getByRole("button", { name: "Preview" }).click();
  const mapping = page.getByRole("region", { name: "Preview and mapping" });
  await expect(mapping.getByTestId("import-ignored-columns")).toContainText("“Colour”");
  await expect(mapping.getByLabel("Field for column Colour")).toHaveValue("__ignore__");
  await expect(mapping.getByLabel("External id column")).toHaveValue("Object number");
  await mapping.getByRole("button", { name: "Check (dry run)" }).click();
  const result = page.getByTestId("import-dry-run");
  await expect(result.getByTestId("import-count-valid")).toHaveText("1");
  await expect(result.getByTestId("import-count-new")).toHaveText("1");
});

test("an admin dry-runs a CSV with one bad row, imports the rest, follows the job to done, and a second run creates nothing", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin", "/import");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Import", exact: true })).toBeVisible();

  const first = await uploadAndCheck(page);
  await expect(first.getByTestId("import-count-rows")).toHaveText("4");
  await expect(first.getByTestId("import-count-valid")).toHaveText("3");
  await expect(first.getByTestId("import-count-new")).toHaveText("3");
  const problems = first.getByTestId("import-problems");
  await expect(problems.getByRole("row")).toHaveCount(2);
  await expect(problems).toContainText("Kind");
  await expect(problems).toContainText("volcano");

  const download = page.waitForEvent("download");
  await first.getByRole("button", { name: "Download problems as CSV" }).click();
  expect((await download).suggestedFilename()).toBe("places-problems.csv");

  await first.getByRole("button", { name: "Import 3 valid rows" }).click();
  const progress = page.getByTestId("import-progress");
  await expect(progress.getByRole("progressbar")).toBeVisible();
  await expect(progress.getByRole("heading", { name: "Import done" })).toBeVisible({ timeout: 120_000 });
  await expect(progress.getByTestId("import-progress-status")).toHaveText("Done: 3 created, 0 updated, 0 unchanged, 1 skipped.");
  await expect(page.getByTestId("import-jobs")).toContainText("places.csv");

  await progress.getByRole("link", { name: "Open the imported records" }).click();
  await expect(page).toHaveURL(/\/records\?section=places&project=/);
  await expect(page.getByRole("link", { name: "Cala del Sorell" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Serra Cremada" })).toHaveCount(0);

  // The same file again: the external ids name the records made above.
  const second = await uploadAndCheck(page);
  await expect(second.getByTestId("import-count-new")).toHaveText("0");
  await expect(second.getByTestId("import-count-unchanged")).toHaveText("3");
  await second.getByRole("button", { name: "Import 3 valid rows" }).click();
  const again = page.getByTestId("import-progress");
  await expect(again.getByRole("heading", { name: "Import done" })).toBeVisible({ timeout: 120_000 });
  await expect(again.getByTestId("import-progress-status")).toContainText("Done: 0 created");
});

const objectsCsv = fileURLToPath(new URL("../samples/import/objects-with-photos.csv", import.meta.url));
const objectPhotosZip = fileURLToPath(new URL("../samples/import/object-photos.zip", import.meta.url));

test("a curator imports museum objects with their photos from a zip: the dry run names the missing file and the text file", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "curator", "/import");
  const form = page.getByRole("form", { name: "Import file" });
  await form.getByLabel("Section").selectOption({ label: "Museum objects" });
  await form.getByLabel("Project").selectOption({ label: "Public Collections" });
  await form.getByLabel(/^File/).setInputFiles(objectsCsv);
  await form.getByLabel("Media zip (optional)").setInputFiles(objectPhotosZip);
  await form.getByRole("button", { name: "Preview" }).click();

  const mapping = page.getByRole("region", { name: "Preview and mapping" });
  await expect(mapping.getByLabel("Field for column Front")).toHaveValue("front");
  await mapping.getByRole("button", { name: "Check (dry run)" }).click();
  const result = page.getByTestId("import-dry-run");
  await expect(result.getByTestId("import-count-valid")).toHaveText("4");
  const problems = result.getByTestId("import-problems");
  await expect(problems.getByRole("row")).toHaveCount(3);
  await expect(problems).toContainText("which is not in the zip");
  await expect(problems).toContainText("which is not an image Mnemo can store");

  await result.getByRole("button", { name: "Import 4 valid rows" }).click();
  const progress = page.getByTestId("import-progress");
  await expect(progress.getByRole("heading", { name: "Import done" })).toBeVisible({ timeout: 120_000 });
  await expect(progress.getByTestId("import-progress-status")).toHaveText("Done: 4 created, 0 updated, 0 unchanged, 2 skipped.");
});

test("a researcher gets the not-found page at /import and no Import link", async ({ page }) => {
  await signIn(page, "researcher", "/records");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Import", exact: true })).toHaveCount(0);
  const response = await page.goto("/import");
  expect(response?.status()).toBe(404);
});
