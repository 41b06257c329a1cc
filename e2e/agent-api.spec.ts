import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Browser, expect, test } from "@playwright/test";
import { type LoginName, firstRecordId, signIn } from "./helpers";

/**
 * The agent API and MCP server through the production build: tokens made on the tokens page
 * work as bearers on /api/v1, on media links and on /api/mcp; a record of a restricted project
 * is answered like a missing one for a user outside it, with no session cookie involved.
 */
async function tokenFor(browser: Browser, who: LoginName): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who, "/account/tokens");
  const form = page.getByRole("form", { name: "New token" });
  await form.getByLabel("Token name").fill(`e2e agent ${who}`);
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveText(/^mnemo_[A-Za-z0-9_-]{43}$/, { timeout: 60_000 });
  const token = (await secret.textContent()) ?? "";
  const usage = page.getByRole("region", { name: "Using a token" });
  await expect(usage).toContainText("/api/v1/search");
  await expect(usage).toContainText("/api/mcp");
  await context.close();
  return token;
}

test("tokens from the tokens page drive the JSON API, media links and MCP, and see only what their user may read", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(240_000);
  const adminToken = await tokenFor(browser, "admin");
  const researcherToken = await tokenFor(browser, "researcher");

  // A record of the restricted mine project, found by the admin in the browser.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, "admin");
  await adminPage.goto("/records");
  const mineProject = await adminPage.getByLabel("Project").locator("option", { hasText: "Mine Closure" }).getAttribute("value");
  const restrictedId = await firstRecordId(adminPage, `section=oral-histories&project=${mineProject}`);
  await adminContext.close();

  // A request context with no cookies at all: only the bearer token speaks.
  const api = await playwright.request.newContext({ baseURL });
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  const openapi = await api.get("/api/v1/openapi.json");
  expect(openapi.status()).toBe(200);
  const document = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/search");

  expect((await api.get("/api/v1/sections")).status()).toBe(401);
  const nowhere = await api.get("/api/v1/nowhere", as(researcherToken));
  expect(nowhere.status()).toBe(404);
  expect(((await nowhere.json()) as { error: { code: string } }).error.code).toBe("not_found");

  // The admin reads the restricted record and fetches its recording with the same token.
  const adminRecord = await api.get(`/api/v1/records/${restrictedId}`, as(adminToken));
  expect(adminRecord.status()).toBe(200);
  const record = (await adminRecord.json()) as { title: string; media: { url: string }[]; url: string };
  expect(record.url).toBe(`${baseURL}/records/${restrictedId}`);
  const mediaUrl = record.media[0]!.url;
  const adminMedia = await api.get(mediaUrl, { headers: { ...as(adminToken).headers, range: "bytes=0-99" } });
  expect(adminMedia.status()).toBe(206);

  // The researcher gets what a missing record gets, for the record and for its media.
  const denied = await api.get(`/api/v1/records/${restrictedId}`, as(researcherToken));
  const missing = await api.get("/api/v1/records/00000000-0000-4000-8000-000000000000", as(researcherToken));
  expect(denied.status()).toBe(404);
  expect(await denied.text()).toBe(await missing.text());
  const deniedMedia = await api.get(mediaUrl, as(researcherToken));
  const missingMedia = await api.get(`${baseURL}/api/media/00000000-0000-4000-8000-000000000000`, as(researcherToken));
  expect(deniedMedia.status()).toBe(404);
  expect(await deniedMedia.text()).toBe(await missingMedia.text());

  // The demo indexes in the background as the app starts: run first, this spec may come before the recording is searchable,
  // and the researcher's search below means something only once the admin's finds it.
  const adminFinds = async () =>
    (
      (await (await api.post("/api/v1/search", { ...as(adminToken), data: { query: record.title, limit: 50 } })).json()) as { results: { recordId: string }[] }
    ).results.map((result) => result.recordId);
  await expect.poll(adminFinds, { timeout: 150_000, intervals: [2_000] }).toContain(restrictedId);
  const search = await api.post("/api/v1/search", { ...as(researcherToken), data: { query: record.title, limit: 50 } });
  expect(search.status()).toBe(200);
  const found = (await search.json()) as { results: { recordId: string; citation: { url: string } }[] };
  expect(found.results.length).toBeGreaterThan(0);
  expect(found.results.map((result) => result.recordId)).not.toContain(restrictedId);
  expect(found.results[0]!.citation.url.startsWith(`${baseURL}/records/`)).toBe(true);

  const invalid = await api.post("/api/v1/ask", { ...as(researcherToken), data: { question: "" } });
  expect(invalid.status()).toBe(400);
  expect(((await invalid.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.question).toBeDefined();

  // MCP over streamable HTTP, with the SDK's own client.
  const client = new Client({ name: "mnemo-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), { requestInit: { headers: as(researcherToken).headers } }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "semantic_search",
        "retrieve",
        "get_agent_context",
        "similar_records",
        "similar_objects",
        "characterize_object",
        "ask",
        "embed_groups",
        "read_record",
        "list_sections",
      ]),
    );
    const sections = await client.callTool({ name: "list_sections", arguments: {} });
    expect((sections.structuredContent as { sections: { slug: string }[] }).sections.map((section) => section.slug)).toContain("oral-histories");
    const deniedTool = await client.callTool({ name: "read_record", arguments: { recordId: restrictedId } });
    expect(deniedTool.isError).toBe(true);
    expect(deniedTool.content).toEqual([{ type: "text", text: "not_found: Not found." }]);
  } finally {
    await client.close();
  }
  await api.dispose();
});
