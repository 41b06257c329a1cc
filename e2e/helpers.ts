import { expect, type Locator, type Page } from "@playwright/test";

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
  // A link from a search carries its query (?q=), which the record page marks; the id is the path.
  const id = href?.split("?")[0]?.split("/").pop();
  if (!id) throw new Error(`no record for ${query}`);
  return id;
}

/** Opens the ask panel on `path` and returns it. */
export async function openAskPanel(page: Page, path: string): Promise<Locator> {
  await page.goto(path);
  await page.getByRole("button", { name: "Ask the archive" }).click();
  return page.getByRole("complementary", { name: "Ask the archive" });
}

/**
 * Asks `question` until `cited` shows in the answer: the demo archive is indexed in the
 * background after start-up, so the first questions may come before the passage is searchable.
 */
export async function askUntilCited(panel: Locator, question: string, cited: Locator): Promise<void> {
  await expect(async () => {
    await panel.getByLabel("Your question").fill(question);
    await panel.getByLabel("Your question").press("Enter");
    await expect(panel.getByTestId("answer").last()).not.toHaveAttribute("data-status", "streaming", { timeout: 60_000 });
    await expect(cited.last()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 300_000, intervals: [5_000] });
}

/**
 * Signs in as the researcher, opens the ask panel on `path` and asks `question` until a citation
 * of `citedTitle` shows; returns the panel and that citation.
 */
export async function researcherAsksUntilCited(page: Page, path: string, question: string, citedTitle: string): Promise<{ panel: Locator; citation: Locator }> {
  await signIn(page, "researcher");
  const panel = await openAskPanel(page, path);
  const citation = panel.getByTestId("citation").filter({ hasText: citedTitle });
  await askUntilCited(panel, question, citation);
  return { panel, citation };
}

/**
 * Waits until the coin typology review queue has proposals, asking for proposals for the
 * uncatalogued objects while it has none (they need the demo's images described by the indexer).
 */
export async function waitForCoinProposals(page: Page): Promise<Locator> {
  const queue = page.getByTestId("review-queue");
  await expect(async () => {
    await page.goto("/review?role=typology&section=coins");
    if (!(await queue.isVisible())) {
      await page.getByRole("button", { name: "Propose for uncatalogued objects" }).click();
      await expect(page.getByText(/Examined \d+ object|Every object you edit/)).toBeVisible({ timeout: 60_000 });
      await page.goto("/review?role=typology&section=coins");
    }
    await expect(queue).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 360_000, intervals: [5_000] });
  return queue;
}

/** Unfolds the record list's "More filters" (project, language, years, page size…) if it is folded. */
export async function openMoreFilters(page: Page): Promise<void> {
  const drawer = page.getByTestId("filters-drawer");
  if ((await drawer.getAttribute("open")) === null) await drawer.locator("summary").click();
  await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();
}
