import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/** Personal API tokens: shown once, listed by prefix only, revoked; nobody else sees them. */
test("a researcher creates a token that is shown once, sees it listed, and revokes it; another user never sees it", async ({ page, browser }) => {
  await signIn(page, "researcher", "/account/tokens");
  // What the server offers agents, said to someone who cannot change it: no setting's name.
  await expect(page.getByText(/this server offers no write tools \(an administrator can enable them\)/)).toBeVisible();
  await expect(page.getByText(/MNEMO_MCP_ALLOW_WRITE/)).toHaveCount(0);
  const form = page.getByRole("form", { name: "New token" });
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByText("Name the token, e.g. the tool that will use it.")).toBeVisible();
  await form.getByLabel("Token name").fill("Citation manager");
  await form.getByLabel("Expires after").selectOption("7");
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveText(/^mnemo_[A-Za-z0-9_-]{43}$/);
  const token = (await secret.textContent()) ?? "";

  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  const row = page.getByTestId("tokens").getByRole("row", { name: /Citation manager/ });
  await expect(row).toContainText(token.slice(0, 12));
  // Made without choosing write access: the token reads only.
  await expect(row.getByTestId("token-scopes")).toHaveText("read");
  await expect(page.locator("body")).not.toContainText(token);

  const other = await browser.newContext();
  const curator = await other.newPage();
  await signIn(curator, "curator", "/account/tokens");
  await expect(curator.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await expect(curator.locator("body")).not.toContainText("Citation manager");
  await other.close();

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  // The server is still indexing the demo in the background: allow the refresh time.
  await expect(page.getByTestId("tokens").getByRole("row", { name: /Citation manager/ })).toContainText("revoked", { timeout: 60_000 });
});
