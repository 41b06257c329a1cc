import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

/**
 * Authority links and linked data on a demo coin, as the researcher sees them: the record page links
 * the coin's type to OCRE and its denomination and material to Nomisma, carries schema.org JSON-LD
 * naming the same URIs, and the coin's Linked Art (what its IIIF manifest's seeAlso names) says the
 * same. The project's EAD3 finding aid downloads from the record list.
 */
test("a coin's authority links show on its page, in its JSON-LD and in its Linked Art", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=coins&text=RIC%20II%20Trajan%20292");
  await page.goto(`/records/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("RIC II Trajan 292");

  const coinType = page
    .locator("dl dt", { hasText: /^Coin type$/ })
    .locator("xpath=following-sibling::dd[1]")
    .first();
  const ocre = coinType.getByRole("link").first();
  await expect(ocre).toHaveAttribute("href", /^http:\/\/numismatics\.org\/ocre\/id\/ric\.2\.tr\.292/);
  await expect(ocre).toHaveAttribute("rel", /noopener/);
  await expect(coinType).toContainText("OCRE");
  const denomination = page
    .locator("dl dt", { hasText: /^Denomination \(Nomisma\)$/ })
    .locator("xpath=following-sibling::dd[1]")
    .first();
  await expect(denomination.getByRole("link", { name: "Denarius" })).toHaveAttribute("href", "http://nomisma.org/id/denarius");
  const ocreUri = (await ocre.getAttribute("href")) ?? "";

  // schema.org JSON-LD in the page: one script that parses, and names the coin's type.
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(scripts.length).toBeGreaterThan(0);
  const jsonLd = scripts.map((text) => JSON.parse(text) as Record<string, unknown>);
  expect(jsonLd.some((doc) => String(doc["@context"]).includes("schema.org"))).toBe(true);
  expect(scripts.join("\n")).toContain(ocreUri);

  // Linked Art, read as the manifest's seeAlso points at it.
  const linkedArt = await page.request.get(`/api/records/${id}/linked-art`);
  expect(linkedArt.status()).toBe(200);
  expect(linkedArt.headers()["content-type"]).toContain("application/ld+json");
  const art = (await linkedArt.json()) as Record<string, unknown>;
  expect(art.type).toBe("HumanMadeObject");
  expect(JSON.stringify(art)).toContain("http://nomisma.org/id/denarius");

  // A record that does not exist answers as a missing one.
  const missing = await page.request.get("/api/records/00000000-0000-4000-8000-000000000000/linked-art");
  expect(missing.status()).toBe(404);
});
