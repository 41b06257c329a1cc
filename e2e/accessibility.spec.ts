import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { firstRecordId, signIn, openAskPanel, askUntilCited, waitForCoinProposals } from "./helpers";

/**
 * Every page of the app, as the roles that can see it, checked with axe against WCAG 2.0 and
 * 2.1 A and AA. Serious and critical violations fail; moderate and minor ones are printed so
 * they can be worked through. Each page is checked in the state a reader meets it in: a list
 * with and without a search, a recording with its player and transcript, a coin with similar
 * objects and a pending proposal, the ask panel showing a cited answer.
 */
const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
// axe's best practices (one main landmark, heading order, content inside landmarks…) are not
// WCAG criteria; they are checked too and held to the same bar.
const checkedTags = [...wcagTags, "best-practice"];

async function expectAccessible(page: Page, name: string) {
  await page.waitForLoadState("load");
  const results = await new AxeBuilder({ page }).withTags(checkedTags).analyze();
  console.log(`[axe] ${name}: ${results.passes.length} rules passed, ${results.violations.length} with findings`);
  const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  for (const violation of results.violations.filter((violation) => !blocking.includes(violation))) {
    console.log(`[axe ${violation.impact}] ${name}: ${violation.id} — ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
  }
  const described = blocking.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(" ")}: ${node.failureSummary?.replace(/\n/g, " ")}`).join("\n")}`,
  );
  expect.soft(described, `serious or critical axe violations on ${name}`).toEqual([]);
}

async function visit(page: Page, url: string, name: string) {
  await page.goto(url);
  await expectAccessible(page, name);
}

test("signed-out pages", async ({ page }) => {
  await visit(page, "/sign-in", "sign-in");
  // A failed sign-in shows its error.
  await page.getByLabel("Email").fill("nobody@mnemo.demo");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
  await expectAccessible(page, "sign-in with an error");
  await visit(page, "/sign-out", "sign-out, signed out");
});

test("a researcher's pages", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, "researcher");
  await visit(page, "/records", "records list");
  await page.getByRole("button", { name: "Ask the archive" }).click();
  await page.getByRole("complementary", { name: "Ask the archive" }).getByRole("radio", { name: "Research" }).check();
  await expectAccessible(page, "ask panel in research mode");
  await visit(page, "/records?section=coins&pageSize=10&page=2", "records list, filtered and paged");
  await visit(page, "/records?q=moneda%20del%20pantano", "records list with a search");
  await visit(page, "/records?text=zzzz-no-record-has-this", "records list, nothing found");
  await visit(page, "/records?from=1900&to=1800", "records list, invalid filter");
  // On a phone, with the filters and the facets unfolded.
  await page.setViewportSize({ width: 390, height: 844 });
  // (No search: the list and its facets do not wait for the index, which may still be building.)
  await visit(page, "/records?section=oral-histories&from=1900", "records list on a phone");
  await page.getByTestId("filters-drawer").locator("summary").click();
  await page.getByTestId("facets-drawer").locator("summary").click();
  await expect(page.getByTestId("facets")).toBeVisible();
  await expectAccessible(page, "records list on a phone, drawers open");
  await page.setViewportSize({ width: 1280, height: 720 });

  const oralHistory = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${oralHistory}?t=30`);
  await expect(page.getByTestId("player")).toBeVisible();
  await expectAccessible(page, "oral history with player and transcript");

  await visit(page, `/records/${await firstRecordId(page, "section=publications")}`, "publication");
  await visit(page, `/records/${await firstRecordId(page, "section=people")}`, "person");
  await visit(page, `/records/${await firstRecordId(page, "section=places")}`, "place");
  await visit(page, `/records/${await firstRecordId(page, "section=museum-objects")}`, "museum object");
  await visit(page, "/records/new", "new record, not allowed");
  await visit(page, "/objects", "objects by description");
  await visit(page, "/objects?q=silver%20coin", "objects by description with a query");
  await visit(page, "/review", "review queue as a researcher");
  await visit(page, "/account/tokens", "API tokens");
  await page.getByLabel("Token name").fill("Accessibility check");
  await page.getByRole("button", { name: /Create/ }).click();
  await expect(page.getByText(/mnemo_[A-Za-z0-9_-]{43}/).first()).toBeVisible();
  await expectAccessible(page, "API tokens with a new token shown");
  await visit(page, "/records/00000000-0000-4000-8000-000000000000", "record not found");
  await visit(page, "/no-such-page", "unknown page");
  await visit(page, "/sign-out", "sign-out");
});

test("a curator's pages: review, a coin with similar objects and a proposal, editing, golden sets", async ({ page }) => {
  test.setTimeout(480_000);
  await signIn(page, "curator", "/review");
  await expectAccessible(page, "review queue, empty");
  // Proposals need the demo's images described by the background indexer.
  const queue = await waitForCoinProposals(page);
  await expectAccessible(page, "review queue with proposals");

  await queue.locator("tbody tr").first().getByRole("link").click();
  await page.waitForURL(/\/records\/[0-9a-f-]{36}/);
  await expect(page.getByTestId("similar-objects").getByTestId("similar-object").first()).toBeVisible();
  await expect(page.getByTestId("proposal-typology").getByTestId("proposed-value")).toBeVisible();
  await expectAccessible(page, "coin with similar objects and a proposal");
  const coinUrl = new URL(page.url()).pathname;
  await visit(page, `${coinUrl}?objects=visual`, "coin, similar by images");

  await visit(page, `${coinUrl}/edit`, "edit a coin");
  const oralHistory = await firstRecordId(page, "section=oral-histories");
  await visit(page, `/records/${oralHistory}/edit`, "edit an oral history");
  await visit(page, "/records/new", "new record, choose a section");
  await visit(page, "/records/new?section=people", "new person");

  await visit(page, "/golden", "golden sets");
  const form = page.getByRole("form", { name: "New golden set" });
  await form.getByLabel("Name of a new set").fill(`Accessibility set ${Date.now()}`);
  await form.getByLabel("Collection").selectOption({ label: "Oral histories" });
  await form.getByRole("button", { name: "Create set" }).click();
  await expect(page.getByRole("form", { name: "New question" })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, "a golden set");
});

test("the ask panel with a cited answer", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  const panel = await openAskPanel(page, "/records?section=oral-histories");
  await expectAccessible(page, "ask panel, open");
  await askUntilCited(panel, "How did Andrés clean the silver coin he found in the mud?", panel.getByTestId("citation"));
  await expectAccessible(page, "ask panel with a cited answer");
  await panel.getByTestId("citation").first().click();
  await page.waitForURL(/passage=/);
  await expect(page.getByTestId("cited-passage")).toBeVisible();
  await expectAccessible(page, "record opened at a cited passage, panel open");
});

test("an administrator's pages", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, "admin", "/admin");
  await expectAccessible(page, "admin overview");
  await visit(page, "/admin/people", "admin people");
  await visit(page, "/admin/audit", "admin audit log");
  await visit(page, "/admin/audit?kind=sign-ins", "admin audit log, sign-ins");
  await visit(page, "/admin/spaces", "admin index spaces");
  await visit(page, "/admin/thresholds", "admin answer thresholds");
  await visit(page, "/admin/sections/coins", "admin section");
  await page
    .getByRole("button", { name: /^Catalogue/ })
    .first()
    .click();
  await expect(page.getByTestId("group-preview")).toBeVisible();
  await expectAccessible(page, "admin section, embed group open");
  await visit(page, "/admin/sections/coins/objects", "admin section objects");
  await visit(page, "/admin/sections/no-such-section", "admin section not found");
  await visit(page, "/golden", "golden sets as admin");

  await visit(page, "/import", "import");
  const importForm = page.getByRole("form", { name: "Import file" });
  await importForm.getByLabel("Section").selectOption({ label: "Places" });
  await importForm.getByLabel(/^File/).setInputFiles(fileURLToPath(new URL("../tests/fixtures/import/places.csv", import.meta.url)));
  await importForm.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Check (dry run)" }).click();
  // The check writes nothing: the import spec still starts from an archive without these places.
  await expect(page.getByTestId("import-problems")).toBeVisible();
  await expectAccessible(page, "import, previewed and checked with a problem");
});
