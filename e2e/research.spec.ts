import { type Locator, expect, test } from "@playwright/test";
import { firstRecordId, openAskPanel, signIn } from "./helpers";

/**
 * Research mode in the Ask panel, against the scripted loopback model scripts/e2e-server.mjs
 * starts (search the question, read the first readable hit, quote a sentence of it [1]): each
 * tool call shows as a step with links, the answer's citation is verified and opens its record,
 * and a restricted record is never named to a researcher outside its project, while the admin's
 * run on the same question reaches it.
 */
async function research(panel: Locator, question: string): Promise<Locator> {
  const runs = await panel.getByTestId("research").count();
  await expect(panel.getByLabel("Research in")).toHaveValue("all");
  await panel.getByLabel("Your question").fill(question);
  await panel.getByRole("button", { name: "Research", exact: true }).click();
  const run = panel.getByTestId("research").nth(runs);
  await expect(run).toHaveAttribute("data-status", "answered", { timeout: 120_000 });
  return run;
}

test("research mode shows its steps and a verified, cited answer, and never names a restricted record to a researcher outside it", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "admin");
  await page.goto("/records");
  const mineProject = await page.getByLabel("Project").locator("option", { hasText: "Mine Closure" }).getAttribute("value");
  const restrictedId = await firstRecordId(page, `section=oral-histories&project=${mineProject}`);
  const title = ((await page.locator(`table a[href^='/records/${restrictedId}']`).first().textContent()) ?? "").trim();
  expect(title.length).toBeGreaterThan(3);

  // The demo is indexed in the background after start-up: the admin's run reaches the restricted
  // record once it is searchable, and only then does the researcher's run on it mean anything.
  const panel = await openAskPanel(page, "/records");
  await panel.getByRole("radio", { name: "Research" }).check();
  await expect(async () => {
    const run = await research(panel, title);
    const adminSteps = run.getByTestId("research-step");
    await expect(adminSteps.first()).toHaveAttribute("data-tool", "semantic_search");
    await expect(adminSteps.first()).toContainText(`“${title}”`);
    await expect(run.locator(`a[href^='/records/${restrictedId}']`).first()).toBeAttached({ timeout: 1_000 });
    await expect(run.getByTestId("citation")).toHaveCount(1);
  }).toPass({ timeout: 180_000, intervals: [5_000] });

  const researcherContext = await browser.newContext();
  const researcherPage = await researcherContext.newPage();
  await signIn(researcherPage, "researcher");
  const mine = { panel: await openAskPanel(researcherPage, "/records?q=bells"), run: undefined as unknown as Locator };
  // "These search results" is not a research scope: choosing research mode leaves the others.
  await expect(mine.panel.getByLabel("Answer from")).toHaveValue("results:bells");
  await mine.panel.getByRole("radio", { name: "Research" }).check();
  mine.run = await research(mine.panel, title);
  const steps = mine.run.getByTestId("research-step");
  expect(await steps.count()).toBeGreaterThanOrEqual(2);
  await expect(steps.first()).toHaveAttribute("data-tool", "semantic_search");
  await expect(steps.nth(1)).toHaveAttribute("data-tool", "read_record");
  // The restricted record is not a link, a step's id or a source: the whole panel never holds its id.
  expect(await mine.panel.innerHTML()).not.toContain(restrictedId);
  const answer = mine.run.getByTestId("research-answer");
  await expect(answer.getByRole("link", { name: /^Source 1:/ })).toBeVisible();
  const citation = mine.run.getByTestId("citation");
  await expect(citation).toHaveCount(1);
  const href = (await citation.getAttribute("href")) ?? "";
  expect(href).not.toContain(restrictedId);
  // The source opens the record the model read, which the researcher may read.
  await citation.click();
  await researcherPage.waitForURL(/\/records\/[0-9a-f-]{36}/);
  await expect(researcherPage.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(researcherPage.getByText("Not found")).toHaveCount(0);
  // Research runs are not saved as conversations; the mode stays chosen while the panel is open.
  await expect(mine.panel.getByRole("radio", { name: "Research" })).toBeChecked();
  await researcherContext.close();
});
