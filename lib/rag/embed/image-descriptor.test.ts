/**
 * Unit tests of the local image descriptors: unit length, determinism, and that each kind
 * responds to what it is meant to (colour to recolouring, edges to shape, phash surviving a
 * resize and JPEG re-encode). Test images are SVGs rendered by sharp's bundled librsvg.
 */
import { openImage } from "../../archive/image-limits";
import { describe, expect, it } from "vitest";
import { DESCRIPTOR_DIMENSIONS, combineDescriptors, describeImage, describeImageParts, descriptorSimilarity, type DescriptorKind } from "./image-descriptor";

const KINDS: DescriptorKind[] = ["colour", "edges", "phash", "combined"];

/** A 256×256 PNG of the given SVG body on a white background. */
function svgImage(body: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#ffffff"/>${body}</svg>`;
  return openImage(Buffer.from(svg)).png().toBuffer();
}

/** A scene of a disc, a bar and a triangle in the given three colours. */
function scene(a: string, b: string, c: string): Promise<Buffer> {
  return svgImage(
    `<circle cx="90" cy="90" r="55" fill="${a}"/>` +
      `<rect x="140" y="30" width="40" height="190" fill="${b}"/>` +
      `<polygon points="30,230 110,150 120,235" fill="${c}"/>`,
  );
}

const norm = (v: Float32Array) => Math.sqrt(descriptorSimilarity(v, v));

describe("describeImage", () => {
  it.each(KINDS)("%s is unit length with the documented dimension", async (kind) => {
    const v = await describeImage(await scene("#c0392b", "#2c3e50", "#f1c40f"), kind);
    expect(v).toHaveLength(DESCRIPTOR_DIMENSIONS[kind]);
    expect(norm(v)).toBeCloseTo(1, 5);
  });

  it.each(KINDS)("%s gives the identical vector for the same image", async (kind) => {
    const bytes = await scene("#c0392b", "#2c3e50", "#f1c40f");
    const [a, b] = await Promise.all([describeImage(bytes, kind), describeImage(Buffer.from(bytes), kind)]);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it("is unit length for a blank image too", async () => {
    const blank = await svgImage("");
    for (const kind of ["colour", "phash"] as const) expect(norm(await describeImage(blank, kind))).toBeCloseTo(1, 5);
  });

  it("separates a recolouring by colour but hardly by edges", async () => {
    const original = await describeImageParts(await scene("#c0392b", "#2c3e50", "#f1c40f"));
    const recoloured = await describeImageParts(await scene("#27ae60", "#8e44ad", "#3498db"));
    expect(descriptorSimilarity(original.colour, recoloured.colour)).toBeLessThan(0.3);
    expect(descriptorSimilarity(original.edges, recoloured.edges)).toBeGreaterThan(0.9);
  });

  it("keeps the perceptual hash after a small resize and JPEG re-encode", async () => {
    const bytes = await scene("#c0392b", "#2c3e50", "#f1c40f");
    const reencoded = await openImage(bytes).resize(224, 224).jpeg({ quality: 70 }).toBuffer();
    const [a, b] = await Promise.all([describeImage(bytes, "phash"), describeImage(reencoded, "phash")]);
    expect(descriptorSimilarity(a, b)).toBeGreaterThan(0.8);
  });

  it("tells distinct shapes apart by edges, more than a moved copy of one shape", async () => {
    const square = await describeImage(await svgImage(`<rect x="68" y="68" width="120" height="120" fill="#333333"/>`), "edges");
    const moved = await describeImage(await svgImage(`<rect x="60" y="74" width="124" height="112" fill="#333333"/>`), "edges");
    const disc = await describeImage(await svgImage(`<circle cx="128" cy="128" r="65" fill="#333333"/>`), "edges");
    const diamond = await describeImage(await svgImage(`<polygon points="128,38 218,128 128,218 38,128" fill="#333333"/>`), "edges");
    expect(descriptorSimilarity(square, moved)).toBeGreaterThan(0.95);
    expect(descriptorSimilarity(square, disc)).toBeLessThan(0.8);
    expect(descriptorSimilarity(square, diamond)).toBeLessThan(0.5);
    expect(descriptorSimilarity(disc, diamond)).toBeLessThan(0.8);
  });
});

describe("combineDescriptors", () => {
  it("gives the weighted sum of the parts' cosines as its dot product", async () => {
    const a = await describeImageParts(await scene("#c0392b", "#2c3e50", "#f1c40f"));
    const b = await describeImageParts(await scene("#27ae60", "#2c3e50", "#f1c40f"));
    const weights = { colour: 2, edges: 1, phash: 1 };
    const expected =
      0.5 * descriptorSimilarity(a.colour, b.colour) + 0.25 * descriptorSimilarity(a.edges, b.edges) + 0.25 * descriptorSimilarity(a.phash, b.phash);
    expect(descriptorSimilarity(combineDescriptors(a, weights), combineDescriptors(b, weights))).toBeCloseTo(expected, 5);
  });

  it("rejects weights that do not sum above zero", async () => {
    const a = await describeImageParts(await scene("#c0392b", "#2c3e50", "#f1c40f"));
    expect(() => combineDescriptors(a, { colour: 0, edges: 0, phash: 0 })).toThrow();
  });
});
