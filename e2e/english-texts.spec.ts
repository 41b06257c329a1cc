import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

// "La lonja y las mujeres" is a Spanish article of the small demo (Publications, harbour
// project); its first paragraph starts "Quien visita hoy Port de la Calma…". The English needs
// Apertium with its Spanish pair (as .ci/run installs).
test("a Spanish publication shows its English beside each paragraph, labelled machine translation, by keyboard", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=publications&text=La%20lonja%20y%20las%20mujeres");
  await page.goto(`/records/${id}`);
  // The article's body ("Text"), not its abstract: the body holds the "Quien visita hoy" paragraph.
  const toggle = page.getByRole("button", { name: "Show English: Text" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("paragraph-english")).toHaveCount(0);

  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Machine translation from Spanish (Apertium)").first()).toBeVisible({ timeout: 60_000 });
  const pair = page.getByTestId("paragraph-pair").filter({ hasText: "Quien visita hoy" });
  const english = pair.getByTestId("paragraph-english");
  await expect(english).toHaveAttribute("lang", "en");
  await expect(english).toContainText("Port de la Calma");
  await expect(english).toContainText("1999");
  await expect(english).not.toContainText("Quien visita");

  // Hidden again with the same button.
  await toggle.press("Enter");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("paragraph-english")).toHaveCount(0);
});

test("a failed translation says so and retries", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=publications&text=La%20lonja%20y%20las%20mujeres");
  await page.goto(`/records/${id}`);
  let failures = 0;
  await page.route("**/api/records/*/english/*", async (route) => {
    failures++;
    await route.fulfill({ status: 503, body: "{}" });
  });
  await page.getByTestId("text-english-toggle").first().click();
  await expect(page.getByText("The English could not be made just now.").first()).toBeVisible();
  expect(failures).toBe(1);
  await page.unroute("**/api/records/*/english/*");
  await page.getByTestId("text-english-retry").first().click();
  await expect(page.getByTestId("paragraph-english").first()).toBeVisible({ timeout: 60_000 });
});

test("opened from a search, the record page marks the query's words in the text and in its English", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  // The list's links carry the search: the record page is opened with ?q=.
  const link = page.locator("table tbody th > a", { hasText: "La lonja y las mujeres" });
  // Until the demo's first indexing reaches it, the search may not find it yet.
  await expect(async () => {
    await page.goto(`/records?q=${encodeURIComponent("Port de la Calma lonja")}&mode=keyword`);
    await expect(link).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 300_000, intervals: [3_000] });
  await expect(link).toHaveAttribute("href", /\?q=Port/);
  await link.click();
  const marks = page.getByTestId("query-mark");
  await expect(marks.filter({ hasText: /^Calma$/ }).first()).toBeVisible();
  await expect(marks.filter({ hasText: /^lonja$/i }).first()).toBeVisible();

  await page.getByRole("button", { name: "Show English: Text" }).click();
  const english = page.getByTestId("paragraph-pair").filter({ hasText: "Quien visita hoy" }).getByTestId("paragraph-english");
  await expect(english).toBeVisible({ timeout: 60_000 });
  await expect(english.getByTestId("query-mark").filter({ hasText: "Calma" })).toHaveCount(1);
});

test("the English of a text the reader cannot read is the 404 of a missing record", async ({ page }) => {
  await signIn(page, "researcher");
  const missing = await page.request.get("/api/records/00000000-0000-4000-8000-000000000000/english/body");
  expect(missing.status()).toBe(404);
  const malformed = await page.request.get("/api/records/not-an-id/english/..%2Fbody");
  expect(malformed.status()).toBe(404);
  expect(await malformed.text()).toBe(await missing.text());
});
