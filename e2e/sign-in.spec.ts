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
  const email = `nobody-${Date.now()}@mnemo.demo`;
  await page.goto("/sign-in");
  // Each attempt waits for the server's answer: the message of the previous attempt is
  // already on the page, so seeing it proves nothing.
  const attempt = async (password: string) => {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes("/sign-in")),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  };
  for (let index = 0; index < 5; index++) {
    await attempt(`wrong-${index}`);
    await expect(page.getByText("Incorrect email or password.")).toBeVisible();
  }
  await attempt("wrong-again");
  await expect(page.getByText(/Too many failed sign-in attempts/)).toBeVisible();
});

test("the health endpoint answers without a session and reveals no archive content", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { database: { ok: boolean }; indexSpace: string | null; languageBridge: { available: boolean } };
  expect(body.database.ok).toBe(true);
  expect(body.indexSpace).toContain("universal-sentence-encoder-lite");
  expect(typeof body.languageBridge.available).toBe("boolean");
  expect(JSON.stringify(body)).not.toMatch(/mnemo\.demo|Sant Rom|Alcarav/);
});
