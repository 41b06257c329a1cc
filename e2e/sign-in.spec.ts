import { expect, test } from "@playwright/test";
import { logins, signIn, type LoginName } from "./helpers";

test("a visitor without a session is sent to sign-in and back to where they were going", async ({ page }) => {
  const response = await page.goto("/records?section=coins");
  expect(response?.ok()).toBe(true);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await page.getByLabel("Email").fill(logins.researcher.email);
  await page.getByLabel("Password").fill(logins.researcher.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/records\?section=coins$/);
});

const roleLabels = { admin: "Administrator", curator: "Curator", researcher: "Researcher" } as const;

for (const who of Object.keys(logins) as LoginName[]) {
  test(`${who} signs in, sees who they are, and signs out`, async ({ page }) => {
    await signIn(page, who);
    await expect(page.getByRole("heading", { name: "Records", level: 1 })).toBeVisible();
    const header = page.getByRole("banner");
    await expect(header).toContainText(logins[who].name);
    await expect(header).toContainText(roleLabels[logins[who].role]);
    await page.goto("/sign-out");
    await page.getByRole("button", { name: /sign out/i }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/records");
    await expect(page).toHaveURL(/\/sign-in/);
  });
}

test("a wrong password is refused and repeated failures are rate-limited", async ({ page }) => {
  const email = "nobody-e2e@mnemo.demo";
  await page.goto("/sign-in");
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`wrong-${attempt}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Incorrect email or password.")).toBeVisible();
  }
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong-again");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/Too many failed sign-in attempts/)).toBeVisible();
});
