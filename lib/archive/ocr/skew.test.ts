import { describe, expect, it } from "vitest";
import { openImage } from "../image-limits";
import { betterReading, mapBack, upscaleFor } from "./recognise-page";
import { chooseSkewAngle, estimateDeskewAngle, rowProfileScore } from "./skew";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("skew", () => {
  it("scores level lines of ink above the same ink spread over every row", () => {
    const width = 20;
    const striped = new Uint8Array(width * 10).fill(255);
    for (const row of [2, 3, 6, 7]) striped.fill(0, row * width, (row + 1) * width);
    const spread = new Uint8Array(width * 10).fill(255);
    for (let row = 0; row < 10; row++) spread.fill(0, row * width, row * width + 8);
    expect(rowProfileScore(striped, width, 10)).toBeGreaterThan(rowProfileScore(spread, width, 10));
  });

  it("keeps a page level unless another angle is clearly better", () => {
    expect(
      chooseSkewAngle([
        { angle: -1, score: 100 },
        { angle: 0, score: 100 },
        { angle: 1, score: 101 },
      ]),
    ).toBe(0);
    expect(
      chooseSkewAngle([
        { angle: -1, score: 150 },
        { angle: 0, score: 100 },
        { angle: 1, score: 90 },
      ]),
    ).toBe(-1);
    expect(chooseSkewAngle([])).toBe(0);
  });

  it("finds the angle that levels lines of text turned by 1.5°", async () => {
    const lines = Array.from({ length: 14 }, (_, index) => `<rect x="100" y="${120 + index * 60}" width="1000" height="22" fill="black"/>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1000"><rect width="100%" height="100%" fill="white"/>${lines}</svg>`;
    const directory = await mkdtemp(join(tmpdir(), "skew-test-"));
    try {
      const path = join(directory, "page.png");
      await openImage(Buffer.from(svg)).rotate(1.5, { background: "white" }).png().toFile(path);
      expect(await estimateDeskewAngle(path)).toBeCloseTo(-1.5, 0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("the second reading", () => {
  const page = (text: string, meanConfidence: number) => ({ text, words: [], meanConfidence });

  it("is kept only when more confident without losing text", () => {
    const first = page("Sant Romà de Vall va desaparèixer", 62);
    expect(betterReading(first, page("Sant Romà de Vall va desaparèixer", 91)).meanConfidence).toBe(91);
    expect(betterReading(first, page("Sant Romà", 97))).toBe(first);
    expect(betterReading(first, page("Sant Roma de Vall va desapareixer", 60))).toBe(first);
  });

  it("enlarges only pages whose words came out small", () => {
    const words = (height: number, t = "mar", c = 90) => Array.from({ length: 5 }, () => ({ t, x: 0, y: 0, w: 10, h: height, c }));
    expect(upscaleFor(words(14))).toBe(2);
    expect(upscaleFor(words(36))).toBe(1);
    expect(upscaleFor([])).toBe(2);
    // Speckle taken for words (one mark, or unsure) does not make large print look small.
    expect(upscaleFor([...words(36), ...words(6, "."), ...words(6, "ii", 20)])).toBe(1);
  });

  it("maps a word box of the levelled, enlarged copy back onto the original", () => {
    // Unturned and only enlarged: halve.
    expect(mapBack({ t: "a", x: 200, y: 100, w: 60, h: 40, c: 90 }, { width: 500, height: 400 }, { width: 500, height: 400 }, 0, 2)).toMatchObject({
      x: 100,
      y: 50,
      w: 30,
      h: 20,
    });
    // Turned by 90° on a square canvas: the centre (150, 100) comes back from (300, 150).
    const back = mapBack({ t: "a", x: 290, y: 140, w: 20, h: 20, c: 90 }, { width: 400, height: 400 }, { width: 400, height: 400 }, 90, 1);
    expect(back.x + back.w / 2).toBeCloseTo(150, 0);
    expect(back.y + back.h / 2).toBeCloseTo(100, 0);
  });
});
