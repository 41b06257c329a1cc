import { expect, request as playwrightRequest, test, type APIResponse, type Page } from "@playwright/test";
import { firstRecordId, logins, signIn } from "./helpers";

/**
 * Security headers and sessions: every page, API answer and media file carries the headers; the
 * page policy runs only the app's own scripts (an injected one does not run) while the app works
 * without a single policy violation; the session cookie is HttpOnly and SameSite=Lax, Secure with
 * the __Secure- prefix over https; signing out ends the session on the server, so a copy of the
 * cookie is refused, and the user's other sessions go on.
 */

function expectCommonHeaders(response: APIResponse | { headers(): Record<string, string> }, what: string) {
  const headers = response.headers();
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["cross-origin-opener-policy"], what).toBe("same-origin");
  for (const feature of ["camera=()", "microphone=()", "geolocation=()"]) expect(headers["permissions-policy"], what).toContain(feature);
}

function directives(policy: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

/** Collects every policy violation the page reports, from before its first script runs. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("pages, API answers and media carry the security headers; the page policy restricts scripts", async ({ page }) => {
  const signInPage = await page.request.get("/sign-in");
  expectCommonHeaders(signInPage, "sign-in page");
  // Signed out, a page is a redirect; it carries the headers too.
  const redirect = await page.request.get("/records", { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expectCommonHeaders(redirect, "redirect to sign-in");

  await signIn(page, "researcher");
  const pageResponse = await page.request.get("/records");
  expect(pageResponse.status()).toBe(200);
  expectCommonHeaders(pageResponse, "records page");
  const policy = directives(pageResponse.headers()["content-security-policy"]);
  const scriptSources = policy.get("script-src") ?? [];
  const nonce = scriptSources.find((source) => source.startsWith("'nonce-"))?.slice(7, -1) ?? "";
  expect(nonce.length).toBeGreaterThanOrEqual(16);
  expect(scriptSources).toContain("'strict-dynamic'");
  expect(scriptSources).not.toContain("'unsafe-inline'");
  expect(scriptSources).not.toContain("'unsafe-eval'");
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'self'"]);
  expect(policy.get("form-action")).toEqual(["'self'"]);
  expect(policy.get("media-src")).toContain("'self'");
  // The app's own scripts carry this response's nonce; the next response has another.
  const html = await pageResponse.text();
  expect(html).toContain(`nonce="${nonce}"`);
  const again = directives((await page.request.get("/records")).headers()["content-security-policy"]);
  expect(again.get("script-src")).not.toContain(`'nonce-${nonce}'`);

  for (const url of ["/api/health", "/api/ask/threads"]) {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(200);
    expectCommonHeaders(response, url);
    expect(directives(response.headers()["content-security-policy"]).get("default-src"), url).toEqual(["'none'"]);
  }
  const unauthorised = await playwrightRequest.newContext({ baseURL: new URL(page.url()).origin });
  const refused = await unauthorised.get("/api/ask/threads");
  expect(refused.status()).toBe(401);
  expectCommonHeaders(refused, "401 answer");
  await unauthorised.dispose();

  const id = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${id}`);
  const mediaUrl = (await page.getByTestId("player").getAttribute("src")) ?? "";
  expect(mediaUrl).toMatch(/^\/api\/media\//);
  const media = await page.request.get(mediaUrl, { headers: { range: "bytes=0-99" } });
  expect(media.status()).toBe(206);
  expectCommonHeaders(media, "media");
  const mediaPolicy = directives(media.headers()["content-security-policy"]);
  expect(mediaPolicy.get("default-src")).toEqual(["'none'"]);
  expect(mediaPolicy.get("media-src")).toEqual(["'self'"]);
  expect(mediaPolicy.has("sandbox")).toBe(true);
});

test("the app's pages run without policy violations: navigation, media, thumbnails, the chat stream", async ({ page }) => {
  test.setTimeout(240_000);
  const violations = await watchViolations(page);
  await signIn(page, "researcher");
  // Client-side navigation loads more of the app's scripts.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Objects" }).click();
  await page.waitForURL(/\/objects/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Records" }).click();
  await page.waitForURL(/\/records/);
  await page.getByLabel("Section").selectOption("coins");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/section=coins/);
  await page.locator("table a[href^='/records/']").first().click();
  await page.waitForURL(/\/records\/[0-9a-f-]{36}/);
  // Images come from the media route and load.
  const image = page.locator("main img[src^='/api/media/']").first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);

  // A recording plays.
  const id = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${id}?t=5`);
  const player = page.getByTestId("player");
  await player.evaluate((element: HTMLMediaElement) => element.play());
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(5);

  // The ask panel's answer streams in.
  await page.getByRole("button", { name: "Ask the archive" }).click();
  const panel = page.getByRole("complementary", { name: "Ask the archive" });
  await panel.getByLabel("Your question").fill("What is the recipe for paella valenciana?");
  await panel.getByRole("button", { name: "Ask" }).click();
  await expect(panel.getByTestId("answer").last()).toHaveAttribute("data-status", /refused|answered/, { timeout: 90_000 });

  await page.goto("/account/tokens");
  await page.goto("/sign-out");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);
  expect(violations).toEqual([]);
});

test("the page policy stops injected scripts", async ({ page }) => {
  // Code run through the DevTools protocol (page.evaluate, page.addScriptTag) is exempt from the
  // page's policy in Chromium — even eval() runs there — so scripts are injected where an
  // attacker's would arrive: into the HTML of a response (a stored or reflected injection that
  // got past escaping) and as markup put into the page (DOM injection).
  const violations = await watchViolations(page);
  await signIn(page, "researcher");
  await page.route("**/records", async (route) => {
    const response = await route.fetch();
    const injected = [
      `<script>window.injected = (window.injected ?? []).concat("inline script");</script>`,
      `<script src="data:text/javascript,window.injected=(window.injected??[]).concat('script from elsewhere')"></script>`,
      `<img alt="" src="data:image/png;base64,AAAA" onerror="window.injected = (window.injected ?? []).concat('event handler')">`,
    ].join("");
    await route.fulfill({ response, body: (await response.text()).replace("</body>", `${injected}</body>`) });
  });
  await page.goto("/records");
  // The page's own scripts still run: the form is interactive.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByLabel("Section").selectOption("coins");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/section=coins/);
  await page.unroute("**/records");

  // Markup put into the page later, with an inline handler.
  await page.evaluate(() => {
    const holder = document.createElement("div");
    holder.innerHTML = `<img alt="" src="data:image/png;base64,AAAA" onerror="window.injected = (window.injected ?? []).concat('injected markup')">`;
    document.body.append(holder);
  });
  await expect.poll(() => violations.filter((violation) => violation.startsWith("script-src")).length).toBeGreaterThanOrEqual(4);
  expect(await page.evaluate(() => (window as unknown as { injected?: string[] }).injected)).toBeUndefined();
});

test("the session cookie is HttpOnly and SameSite=Lax, and Secure with the __Secure- prefix over https", async ({ page, baseURL }) => {
  await signIn(page, "researcher");
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "authjs.session-token");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  // This test server is plain http on loopback: no Secure flag is possible here.
  expect(cookie?.secure).toBe(false);

  // Behind an https proxy (or with an https AUTH_URL) Auth.js uses secure cookies: the same
  // sign-in, told the original request was https, sets a __Secure- cookie with Secure.
  const https = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-proto": "https" } });
  const csrf = await https.get("/api/auth/csrf");
  const csrfCookie = csrf.headersArray().find((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith("__Host-authjs.csrf-token="));
  expect(csrfCookie?.value).toMatch(/; Secure/i);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const callback = await https.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: logins.researcher.email, password: logins.researcher.password, callbackUrl: "/records" },
    headers: { cookie: (csrfCookie?.value ?? "").split(";")[0] ?? "" },
    maxRedirects: 0,
  });
  expect(callback.status()).toBe(302);
  const session = callback
    .headersArray()
    .find((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith("__Secure-authjs.session-token="));
  expect(session?.value).toBeTruthy();
  const flags = (session?.value ?? "").split(";").map((part) => part.trim().toLowerCase());
  expect(flags).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax", "path=/"]));
  await https.dispose();
});

test("signing out ends that session on the server: a copy of its cookie is refused, other sessions go on", async ({ page, browser, baseURL }) => {
  await signIn(page, "researcher");
  const copied = await page.context().cookies();
  // A second browser of the same user.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, "researcher");

  // The copy works while the session lasts…
  const thief = await playwrightRequest.newContext({ baseURL, storageState: { cookies: copied, origins: [] } });
  expect((await thief.get("/api/ask/threads")).status()).toBe(200);
  expect((await thief.get("/records", { maxRedirects: 0 })).status()).toBe(200);

  await page.goto("/sign-out");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);

  // …and not after sign-out: the API answers 401, and a browser with the copy is sent to sign-in
  // without seeing the page.
  expect((await thief.get("/api/ask/threads")).status()).toBe(401);
  await thief.dispose();
  const replayContext = await browser.newContext({ storageState: { cookies: copied, origins: [] } });
  const replayed = await replayContext.newPage();
  await replayed.goto("/records");
  await replayed.waitForURL(/\/sign-in\?callbackUrl=/);
  await expect(replayed.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await replayContext.close();

  // The user's other session is untouched.
  expect((await other.request.get("/api/ask/threads")).status()).toBe(200);
  await other.goto("/records");
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(other).toHaveURL(/\/records/);
  await otherContext.close();
});
