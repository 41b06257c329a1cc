import { expect, type Page } from "@playwright/test";

export const logins = {
  admin: { email: "admin@mnemo.demo", password: "mnemo-admin", name: "Admin", role: "admin" },
  curator: { email: "curator@mnemo.demo", password: "mnemo-curator", name: "Curator", role: "curator" },
  researcher: { email: "researcher@mnemo.demo", password: "mnemo-researcher", name: "Researcher", role: "researcher" },
  mineResearcher: { email: "mine.researcher@mnemo.demo", password: "mnemo-mine", name: "Mine Researcher", role: "researcher" },
} as const;

export type LoginName = keyof typeof logins;

export async function signIn(page: Page, who: LoginName, returnTo = "/records") {
  const login = logins[who];
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
}

/** The id of the first record the list shows for a query, as the given page sees it. */
export async function firstRecordId(page: Page, query: string): Promise<string> {
  await page.goto(`/records?${query}`);
  const link = page.locator("table a[href^='/records/']").first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const id = href?.split("/").pop();
  if (!id) throw new Error(`no record for ${query}`);
  return id;
}
