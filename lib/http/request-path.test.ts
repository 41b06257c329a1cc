import { describe, expect, it } from "vitest";
import { isDataPath, isUnreadablePath } from "./request-path";

describe("isUnreadablePath", () => {
  it("takes paths whose escapes decode to storable text", () => {
    for (const path of [
      "/",
      "/records",
      "/records/0b6f3c1e-1d2a-4c7e-9f00-2b1f9e0c4d11",
      "/iiif/collection/project/caf%C3%A9/2",
      "/records/a%2Fb",
      "/records/%F0%9F%98%80",
      "/oai",
      "/records/%25",
    ]) {
      expect(isUnreadablePath(path), path).toBe(false);
    }
  });

  it("refuses escapes that are not UTF-8, an encoded surrogate, NUL and broken escapes", () => {
    for (const path of [
      "/records/%FF",
      "/iiif/image/%FF/info.json",
      "/iiif/collection/project/%ED%A0%80",
      "/iiif/collection/section/%00",
      "/iiif/collection/project/a%00b/1",
      "/records/%C3",
      "/records/%",
      "/records/%G1",
      "/api/v1/records/%E2%82",
    ]) {
      expect(isUnreadablePath(path), path).toBe(true);
    }
  });

  it("refuses a raw NUL or unpaired surrogate (a path that never went through a URL parser)", () => {
    expect(isUnreadablePath("/records/a\u0000b")).toBe(true);
    expect(isUnreadablePath("/records/\uD800")).toBe(true);
  });
});

describe("isDataPath", () => {
  it("is the API, IIIF and OAI routes, not the pages", () => {
    expect(["/api/ask", "/api/v1/records/x", "/iiif/x/manifest", "/oai", "/oai%00"].every(isDataPath)).toBe(true);
    expect(["/", "/records/x", "/apiary", "/iiif", "/account/searches/x/open"].some(isDataPath)).toBe(false);
  });
});
