import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

/**
 * Record history (issue 47): a curator's edit shows in the record's history with who, how and a
 * word diff; they restore the version before it from the keyboard, and the restore is itself a
 * new version. A researcher sees the history without a restore button.
 */
test("a curator sees an edit in the history and restores the version before it; a researcher only reads it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "curator");
  const id = await firstRecordId(page, "section=places");
  await page.goto(`/records/${id}/edit`);
  const name = page.getByLabel("Name");
  const before = await name.inputValue();
  await name.fill(`${before} (renamed)`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${before} (renamed)`);

  const history = page.getByTestId("record-history");
  await expect(history.getByRole("heading", { name: "History" })).toBeVisible();
  const current = history.getByRole("listitem").first();
  await expect(current).toContainText("(current)");
  await expect(current).toContainText("in the record editor");
  await expect(current.locator("ins")).toContainText("(renamed)");

  // Keyboard only: focus the restore button of the previous version, open the dialog, confirm.
  const previous = history.getByRole("listitem").nth(1);
  const restore = previous.getByRole("button", { name: /^Restore version \d+$/ });
  await restore.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /^Restore version \d+\?$/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: /^Restore version \d+$/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(before, { timeout: 30_000 });
  await expect(history.getByRole("listitem").first()).toContainText(/restoring version \d+/);

  const researcherContext = await browser.newContext();
  const researcher = await researcherContext.newPage();
  await signIn(researcher, "researcher");
  const readable = await firstRecordId(researcher, "section=places");
  await researcher.goto(`/records/${readable}`);
  await expect(researcher.getByTestId("record-history").getByRole("listitem").first()).toContainText("(current)");
  await expect(researcher.getByRole("button", { name: /Restore version/ })).toHaveCount(0);
  await researcherContext.close();
});
