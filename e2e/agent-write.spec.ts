import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

/**
 * Write tokens (issue 22): a curator who edits projects chooses "Read and write" on the tokens
 * page, and that token changes a record of a project they edit through the JSON API, with the
 * version it read (a stale one is a 409); a researcher, who edits nothing, is not offered write
 * at all, and their token is refused a write with 403 insufficient_scope.
 */
test("a curator makes a read-and-write token that updates a record with its version; a researcher is offered read only", async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const curatorContext = await browser.newContext();
  const page = await curatorContext.newPage();
  await signIn(page, "curator", "/account/tokens");
  const form = page.getByRole("form", { name: "New token" });
  await form.getByLabel("Token name").fill("e2e cataloguing agent");
  await form.getByLabel("Access").selectOption("write");
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveText(/^mnemo_[A-Za-z0-9_-]{43}$/, { timeout: 60_000 });
  const writeToken = (await secret.textContent()) ?? "";
  const row = page.getByTestId("tokens").getByRole("row", { name: /e2e cataloguing agent/ });
  await expect(row.getByTestId("token-scopes")).toHaveText("read, write", { timeout: 60_000 });

  // A record of a project the curator edits.
  await page.goto("/records");
  const harbour = await page.getByLabel("Project").locator("option", { hasText: "Harbour Trades" }).getAttribute("value");
  const recordId = await firstRecordId(page, `project=${harbour}`);
  await curatorContext.close();

  const researcherContext = await browser.newContext();
  const researcherPage = await researcherContext.newPage();
  await signIn(researcherPage, "researcher", "/account/tokens");
  const researcherForm = researcherPage.getByRole("form", { name: "New token" });
  await expect(researcherForm.getByLabel("Access")).toHaveCount(0);
  await researcherForm.getByLabel("Token name").fill("e2e reading tool");
  await researcherForm.getByRole("button", { name: "Create token" }).click();
  await expect(researcherPage.getByTestId("new-token")).toHaveText(/^mnemo_/, { timeout: 60_000 });
  const readToken = (await researcherPage.getByTestId("new-token").textContent()) ?? "";
  await researcherContext.close();

  // Only the bearer token speaks: no cookies in this context.
  const api = await playwright.request.newContext({ baseURL });
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const read = await api.get(`/api/v1/records/${recordId}`, as(writeToken));
  expect(read.status()).toBe(200);
  const record = (await read.json()) as { version: number; fields: { key: string; type: string }[]; values: Record<string, unknown> };
  const titleKey = record.fields.find((field) => field.type === "text")!.key;
  // The same title again: the record saves (its version moves on) and reads as before for the other tests.
  const values = { [titleKey]: record.values[titleKey] };

  const updated = await api.patch(`/api/v1/records/${recordId}`, { ...as(writeToken), data: { version: record.version, values } });
  expect(updated.status(), await updated.text()).toBe(200);
  expect(((await updated.json()) as { version: number }).version).toBe(record.version + 1);
  const stale = await api.patch(`/api/v1/records/${recordId}`, { ...as(writeToken), data: { version: record.version, values } });
  expect(stale.status()).toBe(409);
  const refused = await api.patch(`/api/v1/records/${recordId}`, { ...as(readToken), data: { version: record.version + 1, values } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
  await api.dispose();
});
