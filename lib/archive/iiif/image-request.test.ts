import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import { canonicalImageRequest, imageInformation, imageLimitsOf, parseImageRequest, renditionKey, tileCount } from "./image-request";
import { thumbnailBody } from "./presentation";

const image = { width: 1200, height: 800 };
const parse = (region: string, size: string, rotation = "0", quality = "default.jpg", of = image) => parseImageRequest({ region, size, rotation, quality }, of);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("not refused");
}

describe("Image API requests", () => {
  it("cut regions: full, square (centred), and pixels cut at the image's edge", () => {
    expect(parse("full", "max").region).toEqual({ left: 0, top: 0, width: 1200, height: 800 });
    expect(parse("square", "max").region).toEqual({ left: 200, top: 0, width: 800, height: 800 });
    expect(parse("1000,700,500,500", "max").region).toEqual({ left: 1000, top: 700, width: 200, height: 100 });
  });

  it("size renditions by width, height, both, a box, a percentage, never larger than the region without ^", () => {
    expect(parse("full", "600,")).toMatchObject({ width: 600, height: 400 });
    expect(parse("full", ",200")).toMatchObject({ width: 300, height: 200 });
    expect(parse("full", "300,300")).toMatchObject({ width: 300, height: 300 });
    expect(parse("full", "!400,400")).toMatchObject({ width: 400, height: 266 });
    expect(parse("full", "!4000,4000")).toMatchObject({ width: 1200, height: 800 });
    expect(parse("full", "pct:25")).toMatchObject({ width: 300, height: 200 });
    expect(parse("full", "^2400,")).toMatchObject({ width: 2400, height: 1600 });
    expect(parse("full", "^!2400,2400")).toMatchObject({ width: 2400, height: 1600 });
    expect(refusal(() => parse("full", "2400,"))).toMatch(/^bad_request: The size 2400×1600 is larger than the region/);
  });

  it("limit an image to its own size times the upscale factor, and to the largest side, as info.json declares", () => {
    expect(imageLimitsOf({ width: 256, height: 256 })).toEqual({ maxWidth: 512, maxHeight: 512 });
    expect(imageLimitsOf({ width: 256, height: 256 }, { maxSize: 4096, maxUpscale: 1 })).toEqual({ maxWidth: 256, maxHeight: 256 });
    // A large scan: no side beyond the largest; its full resolution comes in regions.
    expect(imageLimitsOf({ width: 9000, height: 12000 })).toEqual({ maxWidth: 4096, maxHeight: 4096 });
    expect(imageInformation("https://archive.example/iiif/image/abc", { width: 256, height: 256 })).toMatchObject({ maxWidth: 512, maxHeight: 512 });
  });

  it("refuse sizes beyond the limits with a 400, ^ or not, and keep max and !w,h within them", () => {
    const coin = { width: 256, height: 256 };
    const parseCoin = (size: string) => parse("full", size, "0", "default.png", coin);
    expect(refusal(() => parseCoin("^4096,4096"))).toMatch(/^bad_request: The size 4096×4096 is larger than this image is served \(at most 512×512/);
    expect(refusal(() => parseCoin("^pct:300"))).toMatch(/at most 512×512/);
    expect(refusal(() => parseCoin("^,513"))).toMatch(/at most 512×512/);
    expect(parseCoin("^512,512")).toMatchObject({ width: 512, height: 512 });
    expect(parseCoin("^max")).toMatchObject({ width: 512, height: 512 });
    expect(parseCoin("^!4096,4096")).toMatchObject({ width: 512, height: 512 });
    expect(parseCoin("max")).toMatchObject({ width: 256, height: 256 });
    // A detail of it may be enlarged up to the image's limits, no further.
    expect(parse("0,0,16,16", "^512,512", "0", "default.png", coin)).toMatchObject({ width: 512, height: 512 });
    expect(refusal(() => parse("0,0,16,16", "^1024,1024", "0", "default.png", coin))).toMatch(/at most 512×512/);
    // No upscaling at all when the factor is 1.
    expect(
      refusal(() => parseImageRequest({ region: "full", size: "^300,", rotation: "0", quality: "default.jpg" }, coin, { maxSize: 4096, maxUpscale: 1 })),
    ).toMatch(/at most 256×256/);

    const large = { width: 8000, height: 6000 };
    const max = parse("full", "max", "0", "default.jpg", large);
    expect([max.width, max.height]).toEqual([4096, 3072]);
    expect(refusal(() => parse("full", "5000,", "0", "default.jpg", large))).toMatch(/at most 4096×4096/);
    // Its full resolution, a region at a time.
    expect(parse("4000,3000,2048,2048", "max", "0", "default.jpg", large)).toMatchObject({ width: 2048, height: 2048 });
    expect(parse("full", "^max")).toMatchObject({ width: 2400, height: 1600 });
  });

  it("refuse a malformed request with a 400 naming the parameter", () => {
    expect(refusal(() => parse("pct:10,10,x,50", "max"))).toMatch(/^bad_request: The region "pct:10,10,x,50" is malformed/);
    expect(refusal(() => parse("10,10,50", "max"))).toMatch(/^bad_request: The region "10,10,50"/);
    expect(refusal(() => parse("0,0,0,10", "max"))).toMatch(/^bad_request: The region's width and height/);
    expect(refusal(() => parse("1300,0,10,10", "max"))).toMatch(/^bad_request: The region lies outside/);
    expect(refusal(() => parse("full", "big"))).toMatch(/^bad_request: The size "big"/);
    expect(refusal(() => parse("full", "0,"))).toMatch(/less than one pixel/);
    expect(refusal(() => parse("full", "max", "361"))).toMatch(/^bad_request: The rotation "361" is malformed/);
    expect(refusal(() => parse("full", "max", "-90"))).toMatch(/^bad_request: The rotation "-90"/);
    expect(refusal(() => parse("full", "max", "0", "sepia.jpg"))).toMatch(/^bad_request: The quality "sepia"/);
    expect(refusal(() => parse("full", "max", "0", "default.bmp"))).toMatch(/^bad_request: The format "bmp"/);
    expect(refusal(() => parse("full", "max", "0", "default"))).toMatch(/^bad_request: The format ""/);
    // Malformed wins over unsupported: the client's syntax is wrong either way.
    expect(refusal(() => parse("full", "max", "90", "default.bmp"))).toMatch(/^bad_request/);
  });

  it("answer a valid request for what it does not render with a 501", () => {
    expect(refusal(() => parse("full", "max", "90"))).toMatch(/^not_implemented: The rotation "90" is not offered/);
    expect(refusal(() => parse("full", "max", "22.5"))).toMatch(/^not_implemented/);
    expect(refusal(() => parse("full", "max", "!0"))).toMatch(/^not_implemented: Mirroring/);
    expect(refusal(() => parse("full", "max", "0", "bitonal.jpg"))).toMatch(/^not_implemented: The quality "bitonal"/);
    for (const format of ["tif", "gif", "jp2", "pdf"])
      expect(refusal(() => parse("full", "max", "0", `default.${format}`))).toMatch(new RegExp(`^not_implemented: The format "${format}"`));
    // What it renders: rotation 0 however written, webp, and regions in percent of the image.
    expect(parse("full", "max", "0.0", "default.webp")).toMatchObject({ format: "webp", width: 1200 });
    expect(parse("pct:10,10,50,50", "max").region).toEqual({ left: 120, top: 80, width: 600, height: 400 });
    expect(parse("pct:50,50,100,100", "max").region).toEqual({ left: 600, top: 400, width: 600, height: 400 });
  });

  it("advertise 512 px tiles for an image larger than 1024 px on a side, and serve the requests a viewer makes for them", () => {
    const scan = { width: 2071, height: 1562 };
    const info = imageInformation("https://archive.example/iiif/image/scan", scan);
    expect(info.tiles).toEqual([{ width: 512, scaleFactors: [1, 2, 4, 8] }]);
    expect(imageInformation("https://archive.example/iiif/image/abc", { width: 1024, height: 700 }).tiles).toBeUndefined();
    expect(imageInformation("https://archive.example/iiif/image/abc", image).tiles).toEqual([{ width: 512, scaleFactors: [1, 2, 4] }]);
    expect(info.extraFormats).toEqual(["png", "webp"]);
    // Every tile at every scale, as a viewer asks them from a version 3 service (OpenSeadragon):
    // the region in full-resolution pixels, its size w,h the region divided by the factor.
    for (const factor of info.tiles![0]!.scaleFactors) {
      const step = 512 * factor;
      for (let y = 0; y < scan.height; y += step) {
        for (let x = 0; x < scan.width; x += step) {
          const w = Math.min(step, scan.width - x);
          const h = Math.min(step, scan.height - y);
          const tile = parse(`${x},${y},${w},${h}`, `${Math.ceil(w / factor)},${Math.ceil(h / factor)}`, "0", "default.jpg", scan);
          expect([tile.width, tile.height]).toEqual([Math.ceil(w / factor), Math.ceil(h / factor)]);
          expect(Math.max(tile.width, tile.height)).toBeLessThanOrEqual(512);
        }
      }
    }
    expect(parse("2048,1536,23,26", "23,", "0", "default.jpg", scan)).toMatchObject({
      region: { left: 2048, top: 1536, width: 23, height: 26 },
      width: 23,
      height: 26,
    });
    // 5×4 + 3×2 + 2×1 + 1 tiles, which the rendition cache keeps for it besides its other renditions.
    expect(tileCount(scan)).toBe(29);
    expect(tileCount({ width: 4096, height: 3072 })).toBe(48 + 12 + 4 + 1);
    expect(tileCount({ width: 1024, height: 700 })).toBe(0);
  });

  it("name one rendition one way, whichever way it was asked", () => {
    const coin = { width: 256, height: 256 };
    const coinKey = (region: string, size: string, quality = "default.png") => renditionKey(parse(region, size, "0", quality, coin), coin);
    expect(coinKey("full", "max")).toBe("full/256,256/0/default.png");
    for (const [region, size, quality] of [
      ["full", "256,256", "default.png"],
      ["0,0,256,256", "256,"],
      ["square", ",256", "color.png"],
      ["0,0,999,999", "pct:100"],
      ["full", "!300,300"],
      ["full", "^256,256"],
    ] as const) {
      expect(coinKey(region, size, quality)).toBe("full/256,256/0/default.png");
    }
    expect(coinKey("full", "^max")).toBe("full/512,512/0/default.png");
    expect(coinKey("full", "max", "gray.png")).not.toBe(coinKey("full", "max"));
    expect(canonicalImageRequest(parse("full", "max"), image)).toBe("full/max/0/default.jpg");
    expect(canonicalImageRequest(parse("0,0,1200,800", "1200,800", "0", "color.jpg"), image)).toBe("full/max/0/default.jpg");
    expect(canonicalImageRequest(parse("full", "600,"), image)).toBe(canonicalImageRequest(parse("full", ",400"), image));
    expect(canonicalImageRequest(parse("square", "pct:50", "0", "gray.png"), image)).toBe("200,0,800,800/400,400/0/gray.png");
  });

  it("describe an image service in info.json: level 1, its size, limits and sizes", () => {
    const info = imageInformation("https://archive.example/iiif/image/abc", image);
    expect(info).toMatchObject({
      "@context": "http://iiif.io/api/image/3/context.json",
      id: "https://archive.example/iiif/image/abc",
      type: "ImageService3",
      protocol: "http://iiif.io/api/image",
      profile: "level1",
      width: 1200,
      height: 800,
    });
    expect(info.sizes.at(-1)).toEqual({ width: 1200, height: 800 });
    expect(info.sizes[0]!.width).toBeGreaterThanOrEqual(64);
  });

  it("render a thumbnail at the size the manifest announces for it", () => {
    for (const size of [
      { width: 1200, height: 800 },
      { width: 333, height: 777 },
      { width: 4000, height: 3001 },
      { width: 64, height: 60 },
    ]) {
      const thumbnail = thumbnailBody("https://archive.example/iiif/image/a", size);
      const [region, sized] = thumbnail.id.split("/").slice(-4, -2) as [string, string];
      expect(parse(region, sized, "0", "default.jpg", size)).toMatchObject({ width: thumbnail.width, height: thumbnail.height });
    }
  });
});
