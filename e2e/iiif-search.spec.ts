import { expect, request as playwrightRequest, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

// "La moneda del pantano" is a Spanish interview of the demo: Andrés's second turn (4.45–19.7 s)
// starts "Entré de peón en 1963". A IIIF viewer searching its manifest gets that turn as a hit on
// `#t=`, and the record page opened at the hit's start plays from there.
test("a search inside an interview's IIIF manifest returns the turn's time, and the record page's player opens there", async ({ page, baseURL }) => {
  // The demo archive is indexed in the background after start-up: the first spec may wait for it.
  test.setTimeout(420_000);
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=oral-histories&text=La%20moneda%20del%20pantano");
  await page.goto(`/records/${id}`);
  await expect(page.getByTestId("iiif-link")).toContainText(`/iiif/${id}/search?q=`);

  const manifest = (await (await page.request.get(`/iiif/${id}/manifest`)).json()) as { service?: { id?: string; type?: string }[] };
  const service = manifest.service?.find((entry) => entry.type === "SearchService2");
  expect(service?.id).toMatch(new RegExp(`/iiif/${id}/search$`));

  // The demo archive is indexed in the background after start-up: ask until the turn is searchable.
  type Answer = { type: string; items: { motivation: string; target: string; body: { value: string } }[] };
  const findTurn = (answer: Answer) => answer.items.find((item) => /#t=/.test(item.target) && item.body.value.includes("peón"));
  let answer: Answer = { type: "", items: [] };
  await expect(async () => {
    const response = await page.request.get(`${new URL(service!.id!).pathname}?q=pe%C3%B3n`);
    expect(response.status()).toBe(200);
    answer = (await response.json()) as Answer;
    expect(findTurn(answer)).toBeTruthy();
  }).toPass({ timeout: 300_000, intervals: [5_000] });
  expect(answer.type).toBe("AnnotationPage");
  const hit = findTurn(answer);
  expect(hit?.motivation).toBe("supplementing");
  const start = Number(/#t=([\d.]+),/.exec(hit!.target)![1]);
  expect(start).toBeGreaterThan(4);
  expect(start).toBeLessThan(5);

  // The 1.0 answer Mirador 3 reads names the same moment.
  const v1 = (await (await page.request.get(`/iiif/${id}/search/v1?q=pe%C3%B3n`)).json()) as { resources: { on: string }[]; hits: { match?: string }[] };
  expect(v1.resources.map((resource) => resource.on)).toContain(hit!.target);
  expect(v1.hits.some((entry) => entry.match === "peón")).toBe(true);

  await page.goto(`/records/${id}?t=${start}`);
  const player = page.getByTestId("player");
  await expect(player).toBeVisible();
  await expect
    .poll(async () => player.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(Math.floor(start));
  expect(await player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeLessThan(start + 4);

  // Bad input is a clear 400; a stranger's view of a restricted interview is the missing record's 404.
  const empty = await page.request.get(`/iiif/${id}/search?q=`);
  expect(empty.status()).toBe(400);
  expect(JSON.stringify(await empty.json())).toContain("give it as q");
  const anonymous = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const denied = await anonymous.get(`/iiif/${id}/search?q=pe%C3%B3n`);
  const missing = await anonymous.get("/iiif/00000000-0000-4000-8000-000000000000/search?q=pe%C3%B3n");
  expect(denied.status()).toBe(404);
  expect(await denied.text()).toBe(await missing.text());
  await anonymous.dispose();
});
