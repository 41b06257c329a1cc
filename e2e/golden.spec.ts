import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Golden sets: a curator writes a question, ticks the record that answers it among the
 * candidates the search proposes, runs the set and reads recall@10, nDCG@10 and MRR; a
 * researcher finds no golden sets at all.
 */
test("a curator builds a golden set from search candidates and runs it", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "curator", "/golden");
  const form = page.getByRole("form", { name: "New golden set" });
  await form.getByLabel("Name of a new set").fill("Drowned valley questions");
  await form.getByLabel("Collection").selectOption({ label: "Oral histories" });
  await form.getByRole("button", { name: "Create set" }).click();
  await expect(page.getByRole("heading", { name: "Drowned valley questions", level: 1 })).toBeVisible();

  // The demo is indexed in the background after start: wait until the testimony is a candidate.
  const question = page.getByRole("form", { name: "New question" });
  await expect(async () => {
    await question.getByLabel("New question").fill("the bells were carried on a lorry wrapped in straw");
    await question.getByRole("button", { name: "Find candidates" }).click({ timeout: 30_000 });
    await expect(question.getByRole("button", { name: "Find candidates" })).toBeEnabled({ timeout: 30_000 });
    await expect(question.getByLabel(/Les campanes de Sant Romà/)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 300_000, intervals: [5_000] });
  await question.getByLabel(/Les campanes de Sant Romà/).check();
  await question.getByRole("button", { name: "Add the question" }).click();
  await expect(page.getByTestId("golden-questions")).toContainText("Les campanes de Sant Romà");

  await page.getByLabel("Search mode").selectOption("hybrid");
  await page.getByRole("button", { name: "Run the set" }).click();
  const run = page.getByTestId("golden-run");
  // The page refreshes after the run; the server is still indexing the demo, so allow time.
  await expect(run).toContainText("Recall@10", { timeout: 60_000 });
  await expect(run).toContainText("100.0%");
  await expect(run).toContainText("1 questions");

  await page.goto("/golden");
  await expect(page.getByTestId("golden-sets")).toContainText("Drowned valley questions");
});

test("a researcher finds no golden sets", async ({ page }) => {
  await signIn(page, "researcher", "/records");
  await expect(page.getByRole("link", { name: "Golden sets" })).toHaveCount(0);
  const response = await page.goto("/golden");
  expect(response?.status()).toBe(404);
});

test("an admin reads the answer thresholds off a golden set's score distribution and sets them", async ({ page }) => {
  await signIn(page, "admin", "/admin/thresholds");
  await page.getByLabel("Golden set").selectOption({ label: "Drowned valley questions" });
  await page.getByRole("button", { name: "Show the distribution" }).click();
  await expect(page.getByTestId("score-histogram")).toBeVisible();
  await expect(page.getByTestId("suggested-threshold")).toContainText(/Suggested minimum|No suggestion/);

  const form = page.getByRole("form", { name: "Thresholds" });
  // The thresholds hold for every later question: the ones in force are put back at the end.
  const before = { strong: await form.getByLabel(/^Strong similarity/).inputValue(), minimum: await form.getByLabel(/^Minimum similarity/).inputValue() };
  await form.getByLabel(/^Strong similarity/).fill("0.1");
  await form.getByLabel(/^Minimum similarity/).fill("0.4");
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(form.getByText("The strong threshold must not be below the minimum.").first()).toBeVisible();
  await form.getByLabel(/^Strong similarity/).fill("0.5");
  await form.getByLabel(/^Minimum similarity/).fill("0.3");
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(form.getByText("Saved; the next question uses these thresholds.")).toBeVisible();

  await page.reload();
  await expect(form.getByLabel(/^Strong similarity/)).toHaveValue("0.5");
  await expect(form.getByLabel(/^Minimum similarity/)).toHaveValue("0.3");
  await form.getByLabel(/^Strong similarity/).fill(before.strong);
  await form.getByLabel(/^Minimum similarity/).fill(before.minimum);
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(form.getByText("Saved; the next question uses these thresholds.")).toBeVisible();
});
