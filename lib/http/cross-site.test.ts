import { describe, expect, it } from "vitest";
import { hasSessionCookie, isCrossSiteWrite, refuseCrossSiteCookieWrite } from "./cross-site";

const post = (headers: Record<string, string>, method = "POST") => ({ method, headers: new Headers(headers) });
const session = "authjs.session-token=a-session";

describe("isCrossSiteWrite", () => {
  it("lets a page's own writes through, directly and behind a proxy", () => {
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test", host: "mnemo.test" }))).toBe(false);
    expect(isCrossSiteWrite(post({ origin: "https://archive.example", host: "127.0.0.1:3000", "x-forwarded-host": "archive.example, 127.0.0.1" }))).toBe(false);
    // The Origin decides when there is one, whatever Fetch Metadata says.
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test", host: "mnemo.test", "sec-fetch-site": "same-origin" }))).toBe(false);
  });

  it("flags a forged, null or unreadable Origin, another port and a sibling subdomain", () => {
    expect(isCrossSiteWrite(post({ origin: "https://evil.example", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "null", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "not a url", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test:8080", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://files.mnemo.test", host: "mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "http://mnemo.test" }))).toBe(true);
    expect(isCrossSiteWrite(post({ origin: "https://evil.example", host: "mnemo.test", "sec-fetch-site": "same-origin" }))).toBe(true);
  });

  it("without an Origin, refuses what Sec-Fetch-Site calls cross-site or same-site", () => {
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "Cross-Site" }, "DELETE"))).toBe(true);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "none" }))).toBe(false);
  });

  it("lets a request with neither Origin nor Sec-Fetch-Site through: a program, not a browser", () => {
    expect(isCrossSiteWrite(post({ host: "mnemo.test" }))).toBe(false);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", cookie: session }, "PATCH"))).toBe(false);
  });

  it("leaves reads alone", () => {
    expect(isCrossSiteWrite(post({ origin: "null", host: "mnemo.test" }, "GET"))).toBe(false);
    expect(isCrossSiteWrite(post({ origin: "https://evil.example", host: "mnemo.test" }, "HEAD"))).toBe(false);
    expect(isCrossSiteWrite(post({ host: "mnemo.test", "sec-fetch-site": "cross-site" }, "OPTIONS"))).toBe(false);
  });
});

describe("hasSessionCookie", () => {
  it("finds Auth.js's session cookie by name, plain, secure or in chunks, among others", () => {
    expect(hasSessionCookie(new Headers({ cookie: session }))).toBe(true);
    expect(hasSessionCookie(new Headers({ cookie: "theme=dark; __Secure-authjs.session-token=x" }))).toBe(true);
    expect(hasSessionCookie(new Headers({ cookie: "authjs.session-token.0=a;authjs.session-token.1=b" }))).toBe(true);
  });

  it("does not take another cookie, or a value that only mentions the name, for it", () => {
    expect(hasSessionCookie(new Headers())).toBe(false);
    expect(hasSessionCookie(new Headers({ cookie: "authjs.csrf-token=x; authjs.callback-url=y" }))).toBe(false);
    expect(hasSessionCookie(new Headers({ cookie: "note=authjs.session-token=x" }))).toBe(false);
    expect(hasSessionCookie(new Headers({ cookie: "xauthjs.session-token=x" }))).toBe(false);
  });
});

describe("refuseCrossSiteCookieWrite", () => {
  it("refuses a cross-site write that carries the session cookie with a 403", () => {
    expect(() => refuseCrossSiteCookieWrite(post({ origin: "null", host: "mnemo.test", cookie: session }))).toThrow(/another site/);
    try {
      refuseCrossSiteCookieWrite(post({ host: "mnemo.test", "sec-fetch-site": "cross-site", cookie: session }, "DELETE"));
      expect.unreachable();
    } catch (error) {
      expect((error as { status: number }).status).toBe(403);
    }
  });

  it("lets a cookieless write (an anonymous harvester) and a same-origin one through", () => {
    expect(() => refuseCrossSiteCookieWrite(post({ origin: "https://harvester.example", host: "mnemo.test" }))).not.toThrow();
    expect(() => refuseCrossSiteCookieWrite(post({ origin: "http://mnemo.test", host: "mnemo.test", cookie: session }))).not.toThrow();
  });
});
