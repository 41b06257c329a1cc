import { type APIRequestContext, expect, request as playwrightRequest, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

// IIIF for viewers and harvesters: the demo's Public Collections project is public, so its coins'
// manifests and images are served without a session (CORS open); the oral histories of the
// valley are not, and answer exactly as a missing record. A signed-in researcher finds the
// "IIIF manifest" link on an interview, whose manifest carries the transcript as annotations.

type Reference = { id: string; type: string };
type Canvas = {
  label: Record<string, string[]>;
  items: { items: { body: { service?: { id: string }[] } }[] }[];
  annotations?: { items: { motivation: string; target: string }[] }[];
};

/** The first manifest a collection lists, following its pages when it is paged. */
async function firstManifest(client: APIRequestContext, collectionUrl: string): Promise<string> {
  const response = await client.get(collectionUrl);
  expect(response.status()).toBe(200);
  const first = ((await response.json()) as { items: Reference[] }).items[0]!;
  return first.type === "Collection" ? firstManifest(client, first.id) : first.id;
}

test("anonymous viewers get a public coin's manifest and images, and nothing of a members-only interview", async ({ baseURL, browser }) => {
  const anonymous = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });

  const coins = await anonymous.get("/iiif/collection/section/coins");
  expect(coins.headers()["access-control-allow-origin"]).toBe("*");
  const manifestUrl = await firstManifest(anonymous, "/iiif/collection/section/coins");
  const response = await anonymous.get(new URL(manifestUrl).pathname);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/ld+json");
  // Data, like an API answer: nothing in it may load or run (next.config.ts).
  expect(response.headers()["content-security-policy"]).toContain("default-src 'none'");
  const manifest = (await response.json()) as { type: string; items: Canvas[] };
  expect(manifest.type).toBe("Manifest");
  expect(manifest.items).toHaveLength(2);
  expect(manifest.items.map((canvas) => canvas.label.en?.[0])).toEqual(["Obverse", "Reverse"]);

  // The obverse through the Image API: its info.json and a small rendition.
  const service = manifest.items[0]!.items[0]!.items[0]!.body.service![0]!.id;
  const info = await anonymous.get(`${new URL(service).pathname}/info.json`);
  expect(info.status()).toBe(200);
  expect(await info.json()).toMatchObject({ type: "ImageService3", profile: "level1" });
  const rendition = await anonymous.get(`${new URL(service).pathname}/full/!100,100/0/default.jpg`);
  expect(rendition.status()).toBe(200);
  expect(rendition.headers()["content-type"]).toBe("image/jpeg");
  expect(rendition.headers()["content-security-policy"]).toContain("sandbox");

  // A valley interview, found by a signed-in researcher, is the missing record's 404 to anyone else.
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "researcher");
  const interviewId = await firstRecordId(page, "section=oral-histories&text=La%20moneda%20del%20pantano");
  await context.close();
  const denied = await anonymous.get(`/iiif/${interviewId}/manifest`);
  const missing = await anonymous.get("/iiif/00000000-0000-4000-8000-000000000000/manifest");
  expect(denied.status()).toBe(404);
  expect(await denied.text()).toBe(await missing.text());
  expect((await anonymous.get("/iiif/collection/project/valley")).status()).toBe(404);
  await anonymous.dispose();
});

test("a researcher opens an interview's IIIF manifest from its page, with the transcript as annotations", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=oral-histories&text=La%20moneda%20del%20pantano");
  await page.goto(`/records/${id}`);
  const link = page.getByRole("link", { name: "IIIF manifest" });
  await expect(link).toHaveAttribute("href", `/iiif/${id}/manifest`);
  const response = await page.request.get(`/iiif/${id}/manifest`);
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as { items: (Canvas & { duration?: number })[] };
  const recording = manifest.items.find((canvas) => canvas.duration);
  expect(recording?.duration).toBeGreaterThan(0);
  const annotations = recording!.annotations![0]!.items;
  expect(annotations.length).toBeGreaterThan(0);
  expect(annotations.every((annotation) => annotation.motivation === "supplementing" && /#t=[\d.]+,[\d.]+$/.test(annotation.target))).toBe(true);
});
