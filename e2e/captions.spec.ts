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
