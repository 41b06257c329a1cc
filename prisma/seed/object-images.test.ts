import { openImage } from "../../lib/archive/image-limits";
import { describe, expect, it } from "vitest";
import { IMAGE_SIZE, MAX_IMAGE_BYTES, renderCeramicProfile, renderCoinFace, renderMuseumObject } from "./object-images";
import { generateCeramics } from "./ceramics";
import { labelDistances } from "./seed-test-helpers";

const KEYS = ["rec-1", "rec-2", "rec-3", "rec-4", "rec-5", "rec-6"];

const renderers: [string, (key: string) => Promise<Buffer>][] = [
  ["coin obverse", (key) => renderCoinFace({ key, face: "obverse", metal: "silver", typology: "tetradrachm", period: "Classical Greek" })],
  ["coin reverse", (key) => renderCoinFace({ key, face: "reverse", metal: "bronze", typology: "follis", period: "Byzantine" })],
  ["coin, unknown labels", (key) => renderCoinFace({ key, face: "obverse", metal: "unknown", typology: "unidentified", period: null })],
  ["ceramic profile", (key) => renderCeramicProfile({ key, typology: "amphora", material: "coarse earthenware", period: "Iberian" })],
  ["oil lamp profile", (key) => renderCeramicProfile({ key, typology: "oil lamp", material: "terra sigillata", period: "Late Antique" })],
  ["museum painting", (key) => renderMuseumObject({ key, typology: "painting", material: "oil paint", period: "1850–1899" })],
  ["museum sculpture", (key) => renderMuseumObject({ key, typology: "sculpture", material: "bronze", period: "1900–1945" })],
];

describe.each(renderers)("%s", (_name, render) => {
  it("renders a 256×256 WebP within the size budget", async () => {
    const bytes = await render("rec-1");
    const meta = await openImage(bytes).metadata();
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([IMAGE_SIZE, IMAGE_SIZE]);
    expect(bytes.length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
  });

  it("gives the same bytes for the same key and different ones for another key", async () => {
    const [a, b, c] = await Promise.all([render("rec-1"), render("rec-1"), render("rec-2")]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });
});

describe("images follow the labels", () => {
  // Different typology (all else equal) must look further apart than same-typology pairs.
  it.each([
    [
      "coins",
      ["tetradrachm", "obol"],
      (t: string, key: string) => renderCoinFace({ key, face: "obverse", metal: "silver", typology: t, period: "Classical Greek" }),
    ],
    ["coins", ["solidus", "follis"], (t: string, key: string) => renderCoinFace({ key, face: "reverse", metal: "gold", typology: t, period: "Byzantine" })],
    [
      "ceramics",
      ["amphora", "plate"],
      (t: string, key: string) => renderCeramicProfile({ key, typology: t, material: "coarse earthenware", period: "Roman Imperial" }),
    ],
    [
      "ceramics",
      ["bowl", "jug"],
      (t: string, key: string) => renderCeramicProfile({ key, typology: t, material: "tin-glazed earthenware (majolica)", period: "Early Modern" }),
    ],
    ["museum", ["painting", "sculpture"], (t: string, key: string) => renderMuseumObject({ key, typology: t, material: "oil paint", period: "1900–1945" })],
    ["museum", ["print", "drawing"], (t: string, key: string) => renderMuseumObject({ key, typology: t, material: "ink", period: "1850–1899" })],
  ] as const)("%s: %s", async (_domain, labels, render) => {
    const { same, different } = await labelDistances([labels[0], labels[1]], KEYS, render);
    expect(different).toBeGreaterThan(same);
  });

  it("coin metal changes the colour", async () => {
    const { same, different } = await labelDistances(["gold", "bronze"], KEYS, (metal, key) =>
      renderCoinFace({ key, face: "obverse", metal, typology: "solidus", period: "Byzantine" }),
    );
    expect(different).toBeGreaterThan(same * 1.5);
  });

  it("renders 100 images of real records in reasonable time", async () => {
    const records = generateCeramics(100);
    const started = performance.now();
    const sizes = await Promise.all(records.map(async (r) => (await (r.images[0] as { render: () => Promise<Buffer> }).render()).length));
    const ms = performance.now() - started;
    console.log(`rendered 100 ceramic profiles in ${ms.toFixed(0)} ms (max ${Math.max(...sizes)} bytes)`);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(ms).toBeLessThan(30_000);
  });
});
