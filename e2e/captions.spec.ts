import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

// "La moneda del pantano" is a Spanish interview of the demo: Andrés's second turn (4.45–19.7 s)
// starts "Entré de peón en 1963". Its English track needs Apertium (as .ci/run installs).
test("a researcher sees the interview's captions under the player, in Spanish and in English", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=oral-histories&text=La%20moneda%20del%20pantano");
  await page.goto(`/records/${id}?t=5`);
  const player = page.getByTestId("player");
  await expect(player).toBeVisible();

  // The tracks: Spanish by default, English by machine translation.
  await expect(player.locator('track[kind="captions"][srclang="es"]')).toHaveAttribute("label", "Spanish");
  const englishTrack = player.locator('track[kind="captions"][label="English (machine translation)"]');
  await expect(englishTrack).toHaveAttribute("srclang", "en");

  // Before it plays the line shows the cue at the cited second, never an empty box.
  const before = page.getByTestId("caption-line");
  if (await before.isVisible()) expect((await before.innerText()).trim()).not.toBe("");
  // Playing: the caption line shows the turn being spoken.
  await player.evaluate((element: HTMLMediaElement) => {
    element.muted = true;
    element.currentTime = 5;
    return element.play();
  });
  const line = page.getByTestId("caption-line");
  await expect(line).toHaveAttribute("aria-live", "polite");
  await expect(line).toContainText("Andrés Bielsa Lacasa", { timeout: 15_000 });
  await expect(line).toContainText("Entré de peón");

  // The English track: the same moment in English.
  await page.getByLabel("Captions").selectOption({ label: "English (machine translation)" });
  await player.evaluate((element: HTMLMediaElement) => {
    element.currentTime = 5;
    return element.play();
  });
  await expect(line).toContainText("Andrés Bielsa Lacasa", { timeout: 15_000 });
  await expect(line).not.toContainText("Entré de peón");
  await expect(line).toContainText(/1963/);

  // The files themselves, and the download links.
  const englishSrc = await englishTrack.getAttribute("src");
  const english = await page.request.get(englishSrc ?? "");
  expect(english.status()).toBe(200);
  expect(english.headers()["content-type"]).toBe("text/vtt; charset=utf-8");
  expect(await english.text()).toContain("Language: en");
  const srtLink = page.getByRole("link", { name: "SRT" }).first();
  await expect(srtLink).toHaveAttribute("href", `/api/records/${id}/captions/transcript.srt`);
  const srt = await page.request.get(`/api/records/${id}/captions/transcript.srt`);
  expect(srt.headers()["content-type"]).toBe("application/x-subrip; charset=utf-8");
  expect(srt.headers()["content-disposition"]).toContain("la-moneda-del-pantano-transcript.srt");
  expect(await srt.text()).toContain("Andrés Bielsa Lacasa: Entré de peón");
});

test("a Spanish interview shows its English beside each turn, labelled machine translation", async ({ page }) => {
  await signIn(page, "researcher");
  const id = await firstRecordId(page, "section=oral-histories&text=La%20moneda%20del%20pantano");
  await page.goto(`/records/${id}`);
  const toggle = page.getByTestId("english-toggle");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("turn-english")).toHaveCount(0);
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Machine translation from Spanish (Apertium)")).toBeVisible({ timeout: 30_000 });
  // Andrés's turn "Entré de peón en 1963…" with its English under it, marked as English.
  const turn = page.locator("li[data-turn]", { hasText: "Entré de peón" });
  const english = turn.getByTestId("turn-english");
  await expect(english).toHaveAttribute("lang", "en");
  await expect(english).toContainText("1963");
  await expect(english).not.toContainText("Entré de peón");
  expect(await page.getByTestId("turn-english").count()).toBe(await page.locator("li[data-turn]").count());
  // Hidden again with the same button.
  await toggle.click();
  await expect(page.getByTestId("turn-english")).toHaveCount(0);
});
