import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./cross-site";

const post = (headers: Record<string, string>, method = "POST") => ({ method, headers: new Headers(headers) });

describe("isCrossSiteWrite", () => {
  it("lets a page's own server actions through, directly and behind a proxy", () => {
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test", host: "mnemo.test" }))).toBe(false);
    expect(isCrossSiteWrite(post({ origin: "https://archive.example", host: "127.0.0.1:3000", "x-forwarded-host": "archive.example, 127.0.0.1" }))).toBe(false);
    // No Origin: a hand-made request, as Next.js lets it through.
    expect(isCrossSiteWrite(post({ host: "mnemo.test" }))).toBe(false);
  });

  it("flags a forged, null or unreadable Origin", () => {
    expect(isCrossSiteWrite(post({ origin: "https://evil.example", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "null", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "not a url", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test:8080", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test" }))).toBe(true);
  });

  it("leaves reads alone", () => {
    expect(isCrossSiteWrite(post({ origin: "null", host: "mnemo.test" }, "GET"))).toBe(false);
    expect(isCrossSiteWrite(post({ origin: "https://evil.example", host: "mnemo.test" }, "HEAD"))).toBe(false);
  });
});
