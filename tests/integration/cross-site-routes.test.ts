import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../../lib/errors";

/**
 * The cross-site rule (lib/http/cross-site.ts) on every route handler that takes a write, found by
 * walking app/ for route.ts files exporting POST, PUT, PATCH or DELETE, so a new route cannot be
 * forgotten. Each is either a bearer-token route (/api/v1, /api/mcp: built only from
 * lib/api/api-deps, which never reads the cookie), Auth.js's (its own CSRF token), or a cookie
 * route — and each cookie route's own exported handler must refuse a write that carries the
 * session cookie with a foreign Origin, `Origin: null`, or Sec-Fetch-Site cross-site/same-site
 * without an Origin, before it looks for a principal; a same-origin write passes the rule and
 * reaches authentication. Authentication is stood in for: reaching it answers 503 "reached".
 */
const reached = () => new AppError("unavailable", "Reached authentication.");
const principalCalls = vi.hoisted(() => ({ count: 0 }));

vi.mock("../../lib/auth/get-principal", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/auth/get-principal")>()),
  getPrincipal: async () => {
    principalCalls.count += 1;
    throw reached();
  },
}));
vi.mock("../../lib/runtime", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/runtime")>()),
  getRuntime: async () => {
    principalCalls.count += 1;
    throw reached();
  },
}));

const appDir = join(__dirname, "../../app");
const writeMethods = ["POST", "PUT", "PATCH", "DELETE"] as const;
const host = "mnemo.test";
const session = "authjs.session-token=a-session";

interface RouteFile {
  /** app/…/route.ts, relative to the repository. */
  file: string;
  /** The URL path with each [param] filled in. */
  path: string;
  params: Record<string, string | string[]>;
}

function routeFiles(dir = appDir): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...routeFiles(full));
    else if (entry.name === "route.ts") {
      const segments = relative(appDir, dir).split("/").filter(Boolean);
      const params: Record<string, string | string[]> = {};
      const path = segments.map((segment) => {
        const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
        const dynamic = /^\[(\w+)\]$/.exec(segment);
        if (catchAll) params[catchAll[1]!] = ["x"];
        else if (dynamic) params[dynamic[1]!] = "x";
        return catchAll || dynamic ? "x" : segment;
      });
      found.push({ file: relative(join(appDir, ".."), full), path: `/${path.join("/")}`, params });
    }
  }
  return found;
}

type Handler = (request: NextRequest, context: { params: Promise<unknown> }) => Promise<Response>;

async function writesOf(route: RouteFile): Promise<[string, Handler][]> {
  const exported = (await import(join(appDir, "..", route.file))) as Record<string, unknown>;
  return writeMethods.filter((method) => typeof exported[method] === "function").map((method) => [method, exported[method] as Handler]);
}

const isTokenRoute = (route: RouteFile) => /^app\/api\/(v1|mcp)\//.test(route.file);
const isAuthJsRoute = (route: RouteFile) => route.file.startsWith("app/api/auth/");

function send(route: RouteFile, method: string, handler: Handler, headers: Record<string, string>): Promise<Response> {
  const request = new NextRequest(`http://${host}${route.path}`, { method, headers: { host, "content-type": "application/json", ...headers }, body: "{}" });
  return handler(request, { params: Promise.resolve(route.params) });
}

beforeEach(() => {
  principalCalls.count = 0;
});

describe("the cross-site rule on every route that takes a write", () => {
  const routes = routeFiles();

  it("finds the routes, and the cookie routes among them", async () => {
    const cookieWrites: string[] = [];
    for (const route of routes.filter((item) => !isTokenRoute(item) && !isAuthJsRoute(item))) {
      for (const [method] of await writesOf(route)) cookieWrites.push(`${method} ${route.path}`);
    }
    // The walk is not empty: the writes the attack probe found unguarded are among them.
    expect(cookieWrites).toEqual(
      expect.arrayContaining([
        "POST /api/saved-searches",
        "PATCH /api/saved-searches/x",
        "DELETE /api/saved-searches/x",
        "POST /api/ask",
        "DELETE /api/ask/threads/x",
        "POST /api/research",
        "POST /api/import-problems",
        "POST /oai",
      ]),
    );
  });

  it("leaves the token routes to their token: built from lib/api/api-deps only, never the session", () => {
    const tokenRoutes = routes.filter(isTokenRoute);
    expect(tokenRoutes.length).toBeGreaterThan(10);
    for (const route of tokenRoutes) {
      const source = readFileSync(join(appDir, "..", route.file), "utf8");
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
      expect(imports.length, route.file).toBeGreaterThan(0);
      for (const from of imports) expect(["@/lib/api/api-deps", "@/lib/api/openapi"], `${route.file} imports ${from}`).toContain(from);
    }
  });

  it("refuses a cookie write from another site with 403 before looking for a principal, and lets a same-origin one reach authentication", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of routes.filter((item) => !isTokenRoute(item) && !isAuthJsRoute(item))) {
      for (const [method, handler] of await writesOf(route)) {
        checked += 1;
        const refusals: [string, Record<string, string>][] = [
          ["a foreign Origin", { cookie: session, origin: "http://evil.example" }],
          ["Origin: null", { cookie: session, origin: "null" }],
          ["a sibling subdomain's Origin", { cookie: session, origin: `http://files.${host}` }],
          ["Sec-Fetch-Site: cross-site without an Origin", { cookie: session, "sec-fetch-site": "cross-site" }],
          ["Sec-Fetch-Site: same-site without an Origin", { cookie: session, "sec-fetch-site": "same-site" }],
        ];
        for (const [what, headers] of refusals) {
          principalCalls.count = 0;
          const response = await send(route, method, handler, { ...headers, "content-type": "text/plain;charset=UTF-8" });
          const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
          if (response.status !== 403 || body?.error?.code !== "forbidden" || !/another site/.test(body.error.message ?? "")) {
            failures.push(`${method} ${route.path} with ${what}: ${response.status} ${JSON.stringify(body)}`);
          }
          if (principalCalls.count > 0) failures.push(`${method} ${route.path} with ${what}: looked for a principal first`);
        }
        const passes: [string, Record<string, string>][] = [
          ["its own Origin", { cookie: session, origin: `http://${host}` }],
          ["Sec-Fetch-Site: same-origin", { cookie: session, "sec-fetch-site": "same-origin" }],
          ["neither Origin nor Sec-Fetch-Site (a program)", { cookie: session }],
        ];
        for (const [what, headers] of passes) {
          const response = await send(route, method, handler, headers);
          const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
          if (response.status !== 503 || body?.error?.message !== "Reached authentication.")
            failures.push(`${method} ${route.path} with ${what} did not reach authentication: ${response.status} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it("lets a cookieless write to a public route through (an anonymous harvester on another site)", async () => {
    const oai = routes.find((route) => route.path === "/oai")!;
    const [[method, handler]] = (await writesOf(oai)).filter(([name]) => name === "POST") as [[string, Handler]];
    const response = await send(oai, method, handler, { origin: "https://harvester.example", "content-type": "application/x-www-form-urlencoded" });
    expect(response.status).toBe(503);
  });
});
