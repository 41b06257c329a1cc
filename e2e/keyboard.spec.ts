import { expect, test, type Locator, type Page } from "@playwright/test";
import { logins, type LoginName } from "./helpers";

/**
 * Keyboard-only use: everything below is reached with Tab / Shift+Tab and worked with Enter,
 * Space and Escape — no clicks, and text is typed only into a field that has keyboard focus.
 * Wherever focus lands it must be visible (an outline or a ring), and it must never drop to
 * the document body (as it does when a focused button is disabled or removed).
 */

interface FocusState {
  onBody: boolean;
  description: string;
  outline: boolean;
  ring: boolean;
}

async function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body || element === document.documentElement)
      return { onBody: true, description: "body", outline: false, ring: false };
    const style = getComputedStyle(element);
    const transparent = (color: string) => color === "transparent" || /rgba\([^)]*,\s*0\)$/.test(color) || /\/\s*0\)$/.test(color);
    return {
      onBody: false,
      description: `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 60)}"`,
      outline: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1 && !transparent(style.outlineColor),
      ring: style.boxShadow !== "none" && style.boxShadow.split("),").some((shadow) => !transparent(`${shadow})`)),
    };
  });
}

/** Focus is on an element (not lost to the body) and drawn. */
async function expectVisibleFocus(page: Page) {
  const state = await focusState(page);
  expect(state.onBody, "focus was lost to the document body").toBe(false);
  expect(state.outline || state.ring, `no visible focus style on ${state.description}`).toBe(true);
}

/** Presses Tab (or Shift+Tab) until the target has focus, checking each stop shows its focus. */
async function tabTo(page: Page, target: Locator, options: { backwards?: boolean; max?: number } = {}) {
  await expect(target).toBeVisible();
  for (let step = 0; step < (options.max ?? 80); step++) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab");
    const state = await focusState(page);
    if (!state.onBody) expect(state.outline || state.ring, `no visible focus style on ${state.description}`).toBe(true);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Could not reach ${String(target)} with ${options.backwards ? "Shift+Tab" : "Tab"}`);
}

async function signInByKeyboard(page: Page, who: LoginName, returnTo: string) {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  // The first stop is the skip link, shown when focused; Enter moves focus to the main content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectVisibleFocus(page);
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(logins[who].email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(logins[who].password);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
}

test("sign in, search from the records list and open a result, by keyboard", async ({ page }) => {
  test.setTimeout(360_000);
  // A wrong password first: the error is announced and focus stays usable.
  await page.goto("/sign-in");
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type(logins.researcher.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type("not the password");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
  await expectVisibleFocus(page);

  await signInByKeyboard(page, "researcher", "/records");
  await expect(page).toHaveURL(/\/records/);
  // The sign-in form is gone: focus moves to the main content instead of falling to the body.
  await expect(page.locator("main")).toBeFocused();

  // The demo is indexed in the background after start: search until the testimony is found.
  const result = page.locator("table tbody tr").filter({ hasText: "La moneda del pantano" }).getByRole("link").first();
  await expect(async () => {
    await tabTo(page, page.getByLabel("Search the archive"));
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("moneda del pantano");
    await page.keyboard.press("Enter");
    await page.waitForURL(/q=moneda/);
    await expect(result).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 300_000, intervals: [5_000] });

  // Past the filters, facets and export links in one step, then to the result.
  const skip = page.getByTestId("skip-to-results");
  await tabTo(page, skip);
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("#results")).toBeFocused();
  await tabTo(page, result);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/records\/[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("La moneda del pantano");
});

test("ask the archive in the panel and follow a citation to the recording, by keyboard", async ({ page }) => {
  test.setTimeout(420_000);
  await signInByKeyboard(page, "researcher", "/records?section=oral-histories");
  const opener = page.getByRole("button", { name: "Ask the archive" });
  // The panel's button is the page's last control.
  await tabTo(page, opener, { backwards: true });
  await page.keyboard.press("Enter");
  const panel = page.getByRole("complementary", { name: "Ask the archive" });
  const question = panel.getByLabel("Your question");
  await expect(question).toBeFocused();
  await expectVisibleFocus(page);

  const citation = panel.getByTestId("citation").filter({ hasText: "La moneda del pantano" }).last();
  await expect(async () => {
    await expect(question).toBeFocused();
    await page.keyboard.type("How did Andrés clean the silver coin he found in the mud?");
    await page.keyboard.press("Enter");
    await expect(panel.getByTestId("answer").last()).not.toHaveAttribute("data-status", "streaming", { timeout: 60_000 });
    // After an answer focus is back in the question field, ready for the next one.
    await expect(question).toBeFocused();
    await expect(citation).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 300_000, intervals: [5_000] });

  // The sources sit above the question field.
  await tabTo(page, citation, { backwards: true });
  const cited = Number(new URL((await citation.getAttribute("href")) ?? "", "http://x").searchParams.get("t"));
  expect(cited).toBeGreaterThan(0);
  await page.keyboard.press("Enter");
  await page.waitForURL(/passage=/);
  await expect(page.getByTestId("cited-passage")).toContainText("moneda");
  const player = page.getByTestId("player");
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThanOrEqual(cited);
  expect(await player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeLessThan(cited + 3);
  await expectVisibleFocus(page);

  // Escape closes the panel and focus returns to its button, visibly.
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expectVisibleFocus(page);
});

test("a curator opens an object with a pending proposal from the review queue and accepts it, by keyboard", async ({ page }) => {
  test.setTimeout(420_000);
  await signInByKeyboard(page, "curator", "/review?role=typology&section=coins");
  const queue = page.getByTestId("review-queue");
  await expect(async () => {
    if (!(await queue.isVisible())) {
      await tabTo(page, page.getByRole("button", { name: "Propose for uncatalogued objects" }));
      await page.keyboard.press("Enter");
      await expect(page.getByText(/Examined \d+ object|Every object you edit/)).toBeVisible({ timeout: 60_000 });
      // Focus stays on the button while it works and after.
      await expectVisibleFocus(page);
      if (!(await queue.isVisible())) await page.reload();
    }
    await expect(queue).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 360_000, intervals: [5_000] });

  const firstLink = queue.locator("tbody tr").first().getByRole("link");
  await tabTo(page, firstLink);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/records\/[0-9a-f-]{36}/);

  const typology = page.getByTestId("proposal-typology");
  const proposed = ((await typology.getByTestId("proposed-value").textContent()) ?? "").trim();
  expect(proposed).not.toBe("");
  const accept = typology.getByRole("button", { name: `Accept ${proposed}` });
  await tabTo(page, accept);
  await page.keyboard.press("Space");
  await expect(typology).toContainText(`Accepted: Typology is now ${proposed}.`);
  // The decision is saved and shown without losing the reader's place.
  await expect(typology).toContainText(`Catalogued: ${proposed}`);
  await expect(typology.getByTestId("decision-note")).toContainText("Accepted by Curator");
  await expectVisibleFocus(page);
  expect(await typology.evaluate((section) => section.contains(document.activeElement))).toBe(true);
});

test("an admin starts a section reindex by keyboard, and focus stays on the button while it runs and after", async ({ page }) => {
  test.setTimeout(180_000);
  await signInByKeyboard(page, "admin", "/admin/sections/places");
  await expect(page.getByRole("heading", { name: "Places", level: 1 })).toBeVisible();
  // The reindex action is held back a moment on its way to the server, so its running state can be seen.
  const reindexBody = JSON.stringify([{ sectionSlug: "places" }]);
  let reindexRequests = 0;
  await page.route(
    (url) => url.pathname === "/admin/sections/places",
    async (route) => {
      const request = route.request();
      if (request.method() === "POST" && request.headers()["next-action"] && request.postData() === reindexBody) {
        reindexRequests++;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      await route.continue();
    },
  );

  const reindex = page.getByRole("button", { name: "Reindex this section" });
  await tabTo(page, reindex);
  await page.keyboard.press("Enter");
  // While it runs the button says so, and keeps focus.
  await expect(reindex).toBeFocused();
  await expect(reindex).toHaveAttribute("aria-disabled", "true");
  await expectVisibleFocus(page);
  // A second press meanwhile is ignored.
  await page.keyboard.press("Enter");
  await expect(page.getByText(/Queued \d+ records\.|already running/)).toBeVisible({ timeout: 60_000 });
  await expect(reindex).not.toHaveAttribute("aria-disabled");
  await expect(reindex).toBeFocused();
  await expectVisibleFocus(page);
  expect(reindexRequests).toBe(1);
});
