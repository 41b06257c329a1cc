import { describe, expect, it } from "vitest";
import { pngDeclaring, solidPng, truncatedJpeg } from "../../tests/support/damaged-images";
import { AppError } from "../errors";
import { decodeProblem, maxImagePixels, openImage, readImageHeader } from "./image-limits";

let bomb: Promise<Uint8Array> | undefined;
/** One real bomb for the file: making it is a second of compression. */
const theBomb = () => (bomb ??= solidPng(9000, 9000));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("image size from the header alone", () => {
  // Making the bomb is seconds of compression on a busy machine; that it is refused from its
  // header alone, without a decode, the next test shows with a file that has no pixels at all.
  it("refuses a real decompression bomb (a 250 KB PNG of 81 MP), naming its size and the limit", { timeout: 60_000 }, async () => {
    const bomb = await theBomb();
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const error = await refusal(readImageHeader(bomb));
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/9,000 × 9,000 pixels \(81 megapixels\)/);
    expect(error.message).toMatch(/at most 64 megapixels/);
  });

  it("refuses a header that declares 12,000 × 12,000 though the file is a hundred bytes: the refusal needs no decode", async () => {
    const liar = await pngDeclaring(12_000, 12_000);
    expect(liar.byteLength).toBeLessThan(200);
    const error = await refusal(readImageHeader(liar));
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/12,000 × 12,000 pixels \(144 megapixels\)/);
  });

  it("accepts up to the limit exactly and refuses one pixel row more", async () => {
    expect(maxImagePixels).toBe(8000 * 8000);
    await expect(readImageHeader(await pngDeclaring(8000, 8000))).resolves.toEqual({ width: 8000, height: 8000 });
    expect((await refusal(readImageHeader(await pngDeclaring(8000, 8001)))).status).toBe(413);
  });

  it("keeps the other size rules and refuses a header that does not parse", async () => {
    expect((await refusal(readImageHeader(await pngDeclaring(8, 8)))).message).toMatch(/at least 16 pixels/);
    expect((await refusal(readImageHeader(await pngDeclaring(3100, 100)))).message).toMatch(/longer than 30 times/);
    const png = await solidPng(32, 24);
    expect((await refusal(readImageHeader(png.subarray(0, 20)))).message).toMatch(/header is damaged/);
  });
});

describe("decoding", () => {
  it("never allocates more than the limit: openImage refuses the bomb before decoding it", { timeout: 60_000 }, async () => {
    await expect(openImage(await theBomb()).stats()).rejects.toThrow(/pixel limit/);
  });

  it("tells a good image from one whose body is damaged behind a readable header", async () => {
    expect(await decodeProblem(await solidPng(64, 48))).toBeNull();
    const damaged = await truncatedJpeg();
    await expect(readImageHeader(damaged)).resolves.toEqual({ width: 320, height: 240 });
    expect(await decodeProblem(damaged)).toMatch(/premature end|truncated|corrupt/i);
  });
});
