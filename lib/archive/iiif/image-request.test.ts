import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import { canonicalImageRequest, imageInformation, imageLimits, parseImageRequest } from "./image-request";
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

  it("cap max at the server's limits, and refuse sizes beyond them even with ^", () => {
    const large = { width: 8000, height: 6000 };
    const max = parse("full", "max", "0", "default.jpg", large);
    expect(max.width).toBeLessThanOrEqual(imageLimits.maxWidth);
    expect(max.width * max.height).toBeLessThanOrEqual(imageLimits.maxArea);
    expect(max.width / max.height).toBeCloseTo(8000 / 6000, 2);
    expect(refusal(() => parse("full", "5000,", "0", "default.jpg", large))).toMatch(/larger than this server serves/);
    expect(parse("full", "^max")).toMatchObject({ width: 4096 });
  });

  it("refuse what level 1 does not serve with a 400 naming the parameter", () => {
    expect(refusal(() => parse("pct:10,10,50,50", "max"))).toMatch(/^bad_request: The region "pct:10,10,50,50"/);
    expect(refusal(() => parse("0,0,0,10", "max"))).toMatch(/^bad_request: The region's width and height/);
    expect(refusal(() => parse("1300,0,10,10", "max"))).toMatch(/^bad_request: The region lies outside/);
    expect(refusal(() => parse("full", "big"))).toMatch(/^bad_request: The size "big"/);
    expect(refusal(() => parse("full", "0,"))).toMatch(/less than one pixel/);
    expect(refusal(() => parse("full", "max", "90"))).toMatch(/^bad_request: The rotation "90"/);
    expect(refusal(() => parse("full", "max", "0", "bitonal.jpg"))).toMatch(/^bad_request: The quality "bitonal"/);
    expect(refusal(() => parse("full", "max", "0", "default.gif"))).toMatch(/^bad_request: The format "gif"/);
    expect(refusal(() => parse("full", "max", "0", "default"))).toMatch(/^bad_request: The format ""/);
  });

  it("name one rendition one way, whichever way it was asked", () => {
    expect(canonicalImageRequest(parse("full", "max"), image)).toBe("full/max/0/default.jpg");
    expect(canonicalImageRequest(parse("0,0,1200,800", "1200,800", "0", "color.jpg"), image)).toBe("full/max/0/default.jpg");
    expect(canonicalImageRequest(parse("full", "600,"), image)).toBe(canonicalImageRequest(parse("full", ",400"), image));
    expect(canonicalImageRequest(parse("square", "pct:50", "0", "gray.png"), image)).toBe("200,0,800,800/400,400/0/gray.png");
  });

  it("describe an image service in info.json: level 1, its size, limits and sizes", () => {
    const info = imageInformation("https://archive.example/iiif/image/abc", image);
    expect(info).toMatchObject({ "@context": "http://iiif.io/api/image/3/context.json", id: "https://archive.example/iiif/image/abc", type: "ImageService3", protocol: "http://iiif.io/api/image", profile: "level1", width: 1200, height: 800 });
    expect(info.sizes.at(-1)).toEqual({ width: 1200, height: 800 });
    expect(info.sizes[0]!.width).toBeGreaterThanOrEqual(64);
  });

  it("render a thumbnail at the size the manifest announces for it", () => {
    for (const size of [{ width: 1200, height: 800 }, { width: 333, height: 777 }, { width: 4000, height: 3001 }, { width: 64, height: 60 }]) {
      const thumbnail = thumbnailBody("https://archive.example/iiif/image/a", size);
      const [region, sized] = thumbnail.id.split("/").slice(-4, -2) as [string, string];
      expect(parse(region, sized, "0", "default.jpg", size)).toMatchObject({ width: thumbnail.width, height: thumbnail.height });
    }
  });
});
