import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy, unreadablePathPage } from "../../proxy";

/**
 * proxy.ts as Next.js runs it before routing: which paths reach it (its matcher, through Next's
 * own matcher test helper), and what it answers — for unreadable paths (lib/http/request-path.ts),
 * for page writes from another site (lib/http/cross-site.ts), and for everything else.
 */
const origin = "http://mnemo.test";
const host = new URL(origin).host;
const session = "authjs.session-token=a-session";
const appDir = join(__dirname, "../../app");

// Next's test helper reads request storage that its server sets up; a test process has none.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
const { unstable_doesMiddlewareMatch: reachesProxy } = await import("next/experimental/testing/server");
const matches = (path: string) => reachesProxy({ config, url: `${origin}${path}` });

/** Every page's path (app/**\/page.tsx), each [param] filled with `fill`. */
function pagePaths(fill: string, dir = appDir): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...pagePaths(fill, join(dir, entry.name)));
    else if (entry.name === "page.tsx") {
      const segments = relative(appDir, dir)
        .split("/")
        .filter((segment) => segment && !/^\(.*\)$/.test(segment));
      found.push(`/${segments.map((segment) => (/^\[.*\]$/.test(segment) ? fill : segment)).join("/")}`);
    }
  }
  return found;
}

const request = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new NextRequest(`${origin}${path}`, { method: init.method ?? "GET", headers: { host, ...init.headers }, body: init.body });

describe("which requests reach the proxy", () => {
  it("every page, and every API, IIIF and OAI path with a percent-escape", () => {
    for (const path of ["/", "/records", "/records/%FF", "/golden/%FF", "/account/searches/%FF/open", "/sign-in", ...pagePaths("x")])
      expect(matches(path), path).toBe(true);
    for (const path of [
      "/api/v1/records/%FF",
      "/api/media/%FF",
      "/iiif/image/%FF/info.json",
      "/iiif/%FF/manifest",
      "/iiif/collection/section/%00",
      "/iiif/collection/project/%ED%A0%80",
      "/api/auth/%FF",
      "/oai%00",
    ]) {
      expect(matches(path), path).toBe(true);
    }
  });

  it("no other API, IIIF or OAI request (their bodies, imports among them, are not buffered for it), nor Next's assets", () => {
    for (const path of [
      "/api/v1/imports",
      "/api/import-problems",
      "/api/saved-searches",
      "/api/auth/callback/credentials",
      "/api/v1/records/0b6f3c1e",
      "/iiif/image/x/info.json",
      "/oai",
      "/_next/static/chunks/x.js",
      "/icon.svg",
    ]) {
      expect(matches(path), path).toBe(false);
    }
  });
});

describe("unreadable paths, before any route runs", () => {
  const dataPaths = [
    "/api/v1/records/%FF",
    "/iiif/image/%FF/info.json",
    "/iiif/%FF/manifest",
    "/api/media/%FF",
    "/iiif/collection/project/%ED%A0%80",
    "/iiif/collection/section/%00",
    "/iiif/collection/project/a%00b/1",
    "/iiif/collection/section/coins%00/1",
  ];

  it("sees the raw path, undecoded", () => {
    expect(request("/records/%FF").nextUrl.pathname).toBe("/records/%FF");
    expect(request("/iiif/collection/project/%ED%A0%80").nextUrl.pathname).toBe("/iiif/collection/project/%ED%A0%80");
    expect(request("/iiif/collection/section/coins%00/1").nextUrl.pathname).toBe("/iiif/collection/section/coins%00/1");
  });

  it("answers an API, IIIF or OAI path with the JSON 400, signed in or not, for any method", async () => {
    for (const path of dataPaths) {
      const inits: Parameters<typeof request>[1][] = [
        {},
        { headers: { cookie: session } },
        { method: "POST", headers: { cookie: session, origin }, body: "{}" },
      ];
      for (const init of inits) {
        const response = proxy(request(path, init));
        expect(response.status, path).toBe(400);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(await response.json()).toEqual({ error: { code: "bad_request", message: expect.stringMatching(/cannot be read/) } });
      }
    }
  });

  it("shows a page path the not-found page (404), with the page's CSP, signed in or not", () => {
    for (const path of ["/records/%FF", "/golden/%FF", "/account/searches/%FF/open", "/records/a%00b", "/records/%ED%A0%80?passage=1"]) {
      for (const headers of [{}, { cookie: session }] as Record<string, string>[]) {
        const response = proxy(request(path, { headers }));
        const rewrite = response.headers.get("x-middleware-rewrite");
        expect(rewrite, path).not.toBeNull();
        expect(new URL(rewrite!).pathname).toBe(unreadablePathPage);
        expect(new URL(rewrite!).search).toBe("");
        expect(response.headers.get("content-security-policy")).toMatch(/nonce-/);
        expect(response.headers.get("location")).toBeNull();
      }
    }
  });

  it("rewrites to a path no route takes: app/ routes no folder named with `_` and has no top-level [param]", () => {
    expect(unreadablePathPage).toMatch(/^\/_[a-z-]+$/);
    expect(existsSync(join(appDir, unreadablePathPage))).toBe(false);
    expect(readdirSync(appDir).filter((name) => name.startsWith("["))).toEqual([]);
  });

  it("refuses a page write to an unreadable path with the JSON 400", async () => {
    const response = proxy(request("/records/%FF", { method: "POST", headers: { cookie: session, origin, "next-action": "7f00aa" }, body: "[]" }));
    expect(response.status).toBe(400);
  });

  it("lets a readable API path with an escape through untouched: no sign-in redirect, no page CSP", () => {
    for (const path of ["/api/v1/search%3Fq", "/iiif/collection/project/caf%C3%A9", "/api/saved-searches/%41"]) {
      const response = proxy(request(path));
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-security-policy")).toBeNull();
    }
  });
});

describe("page writes (server actions) from another site", () => {
  const pages = pagePaths("0b6f3c1e-1d2a-4c7e-9f00-2b1f9e0c4d11");
  const action = (path: string, headers: Record<string, string>) =>
    proxy(request(path, { method: "POST", headers: { "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8", ...headers }, body: "[]" }));

  it("finds the pages", () => {
    expect(pages).toEqual(expect.arrayContaining(["/", "/records", "/sign-in", "/import"]));
  });

  it("refuses a foreign or null Origin and, without an Origin, a cross-site or same-site Sec-Fetch-Site — with or without a session", async () => {
    for (const path of pages) {
      for (const cookie of [{ cookie: session }, {}] as Record<string, string>[]) {
        for (const headers of [
          { origin: "http://evil.example" },
          { origin: "null" },
          { "sec-fetch-site": "cross-site" },
          { "sec-fetch-site": "same-site" },
        ] as Record<string, string>[]) {
          const response = action(path, { ...cookie, ...headers });
          expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
          expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/another site/);
        }
      }
    }
  });

  it("lets a same-origin write through, and the request carries the page's CSP", () => {
    for (const path of pages) {
      for (const headers of [{ origin }, { "sec-fetch-site": "same-origin" }, {}] as Record<string, string>[]) {
        const response = action(path, { cookie: session, ...headers });
        expect(response.headers.get("x-middleware-next"), path).toBe("1");
        expect(response.headers.get("x-middleware-request-content-security-policy")).toMatch(/nonce-/);
      }
    }
  });

  it("still sends a visitor without a session to sign-in", () => {
    const response = proxy(request("/records/x?q=lamp"));
    expect(response.status).toBe(307);
    expect(new URL(response.headers.get("location")!).search).toBe(`?callbackUrl=${encodeURIComponent("/records/x?q=lamp")}`);
  });
});
