import { type Browser, expect, test } from "@playwright/test";
import { type LoginName, firstRecordId, signIn } from "./helpers";

/**
 * Research mode over the token API through the production build, against the scripted loopback
 * model that scripts/e2e-server.mjs starts (search the question, read the first readable hit,
 * quote it): the stream is NDJSON from start to done, and a restricted record is never named to a
 * researcher outside its project, while the admin's run finds it.
 */
async function tokenFor(browser: Browser, who: LoginName): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who, "/account/tokens");
  const form = page.getByRole("form", { name: "New token" });
  await form.getByLabel("Token name").fill(`e2e research ${who}`);
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveText(/^mnemo_[A-Za-z0-9_-]{43}$/, { timeout: 60_000 });
  const token = (await secret.textContent()) ?? "";
  await context.close();
  return token;
}

type Event = { type: string; status?: string; tool?: string; links?: { title: string; href: string }[] };

test("research streams steps and a verified answer, and never names a restricted record to a researcher outside it", async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const adminToken = await tokenFor(browser, "admin");
  const researcherToken = await tokenFor(browser, "researcher");

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, "admin");
  await adminPage.goto("/records");
  const mineProject = await adminPage.getByLabel("Project").locator("option", { hasText: "Mine Closure" }).getAttribute("value");
  const restrictedId = await firstRecordId(adminPage, `section=oral-histories&project=${mineProject}`);
  await adminContext.close();

  const api = await playwright.request.newContext({ baseURL });
  const restricted = (await (await api.get(`/api/v1/records/${restrictedId}`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
    title: string;
  };
  const research = async (token: string) => {
    const response = await api.post("/api/v1/research", { headers: { authorization: `Bearer ${token}` }, data: { question: restricted.title } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/x-ndjson");
    const text = await response.text();
    return {
      text,
      events: text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Event),
    };
  };

  // The demo is indexed in the background after start-up: the admin's run reaches the restricted
  // record once it is searchable, and only then does the researcher's run on it mean anything.
  await expect(async () => {
    const asAdmin = await research(adminToken);
    expect(asAdmin.events.at(-1)).toEqual({ type: "done", status: "answered" });
    const adminLinks = asAdmin.events.flatMap((event) => event.links ?? []).map((link) => link.href);
    expect(adminLinks).toContain(`${baseURL}/records/${restrictedId}`);
  }).toPass({ timeout: 180_000, intervals: [5_000] });

  const asResearcher = await research(researcherToken);
  expect(asResearcher.events[0]!.type).toBe("start");
  expect(asResearcher.events.at(-1)).toEqual({ type: "done", status: "answered" });
  expect(asResearcher.events.find((event) => event.type === "step")!.tool).toBe("semantic_search");
  expect(asResearcher.text).not.toContain(restrictedId);
  // (The question is the record's title, which the first step's arguments repeat: its id and link are what must not appear.)
  for (const event of asResearcher.events) for (const link of event.links ?? []) expect(link.href).not.toContain(restrictedId);

  expect((await api.post("/api/v1/research", { data: { question: restricted.title } })).status()).toBe(401);
  await api.dispose();
});
