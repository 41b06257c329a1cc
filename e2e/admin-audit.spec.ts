import { expect, test } from "@playwright/test";
import { logins, signIn } from "./helpers";

/**
 * The audit log: an admin sees events (at least their own sign-in), filters them to sign-ins
 * and by actor with a form whose state lives in the URL; nobody but an admin finds the page.
 */
test("an admin reads the audit log and filters it to sign-ins", async ({ page }) => {
  await signIn(page, "admin", "/admin/audit");
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const rows = page.getByTestId("audit-log").locator("tbody tr");
  await expect(rows.first()).toBeVisible();

  await page.getByLabel("Kind").selectOption("sign-ins");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.waitForURL(/[?&]kind=sign-ins/);
  await expect(page.getByLabel("Kind")).toHaveValue("sign-ins");
  await expect(rows.first()).toBeVisible();
  const actions = (await rows.locator("td:nth-child(2)").allTextContents()).map((text) => text.trim());
  expect(actions.length).toBeGreaterThan(0);
  expect(actions.every((action) => action === "sign-in" || action === "sign-in.failed" || action === "sign-out")).toBe(true);
  // Newest first: the sign-in that opened this page is on the first page.
  await expect(
    rows
      .filter({ hasText: logins.admin.email })
      .filter({ has: page.getByRole("cell", { name: "sign-in", exact: true }) })
      .first(),
  ).toBeVisible();

  // The actor filter keeps the kind; the filters survive in the URL.
  await page.getByLabel("Who (email contains)").fill("ADMIN@mnemo");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.waitForURL(/[?&]actor=ADMIN%40mnemo/);
  await expect(page.getByLabel("Kind")).toHaveValue("sign-ins");
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain(logins.admin.email);

  await page.getByLabel("Who (email contains)").fill("nobody-signs-in-as-this");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No events match these filters.")).toBeVisible();

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Administration" }).click();
  await expect(page.getByRole("heading", { name: "Administration", level: 1 })).toBeVisible();
});

test("a curator finds no audit log", async ({ page }) => {
  await signIn(page, "curator", "/records");
  const response = await page.goto("/admin/audit");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const filtered = await page.goto("/admin/audit?kind=sign-ins&actor=admin");
  expect(filtered?.status()).toBe(404);
});
