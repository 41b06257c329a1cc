import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Saved searches: a researcher saves the record list as it stands under a name, finds it on
 * /account/searches with its "new since last visit" count, and opens it back onto the same list;
 * another user never sees it.
 */
test("a researcher saves a search, sees it on Saved searches, and opens it again", async ({ page, browser }) => {
  const name = `Oral histories A–Z ${Date.now()}`;
  await signIn(page, "researcher", "/records?section=oral-histories&sort=-title&page=2");

  await page.getByRole("button", { name: "Save this search" }).click();
  const form = page.getByRole("form", { name: "Save this search" });
  await expect(form.getByLabel("Name this search")).toBeFocused();
  await form.getByLabel("Name this search").fill(name);
  await form.getByLabel("Name this search").press("Enter");
  // A server action: the first call compiles it in the dev server, slow on a busy machine.
  await expect(page.getByText(`Saved as “${name}”.`)).toBeVisible({ timeout: 60_000 });

  // The same name again is refused with a message at the field.
  await page.getByRole("button", { name: "Save this search" }).click();
  await form.getByLabel("Name this search").fill(name.toUpperCase());
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByText("You already have a saved search with this name; choose another.").first()).toBeVisible({ timeout: 60_000 });
  await form.getByLabel("Name this search").press("Escape");
  await expect(page.getByRole("button", { name: "Save this search" })).toBeFocused();

  await page.getByRole("banner").getByRole("link", { name: "Saved searches", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Saved searches" })).toBeVisible();
  const row = page.getByTestId("saved-search").filter({ hasText: name });
  await expect(row).toContainText("Oral histories");
  await expect(row.getByTestId("saved-search-new")).toContainText(/\d+\+? new/);

  // Opening goes back to the list as saved — the section and order, not the page.
  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/records\?section=oral-histories&sort=-title$/);
  await expect(page.getByRole("heading", { level: 1, name: "Oral histories" })).toBeVisible();

  // Nobody else sees it.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, "curator", "/account/searches");
  await expect(other.getByRole("heading", { name: "Saved searches" })).toBeVisible();
  await expect(other.locator("body")).not.toContainText(name);
  await otherContext.close();

  // Deleted after a confirmation.
  await page.goto("/account/searches");
  page.once("dialog", (dialog) => void dialog.accept());
  await page
    .getByTestId("saved-search")
    .filter({ hasText: name })
    .getByRole("button", { name: `Delete “${name}”` })
    .click();
  await expect(page.getByTestId("saved-search").filter({ hasText: name })).toHaveCount(0, { timeout: 60_000 });
});
