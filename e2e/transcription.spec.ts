import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

test("a curator is told what speech to text being off means for them, without the setting's name", async ({ page }) => {
  await signIn(page, "curator");
  const id = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${id}/edit`);
  await expect(page.getByText("Keys while typing in the transcript")).toBeVisible();
  await expect(page.getByText(/^Speech to text is not set up on this installation/)).toBeVisible();
  await expect(page.getByText(/MNEMO_ASR/)).toHaveCount(0);
});

test("an editor transcribes by keyboard beside the transcript, and is told speech to text is off", async ({ page }) => {
  await signIn(page, "admin");
  const id = await firstRecordId(page, "section=oral-histories&sort=title");
  await page.goto(`/records/${id}/edit`);
  await expect(page.getByText("Keys while typing in the transcript")).toBeVisible();
  await expect(
    page.getByText("No speech model ships with Mnemo; the offline default is segmentation only — set MNEMO_ASR to use a transcription server."),
  ).toBeVisible();

  const player = page.getByLabel("Recording, for transcribing");
  await expect(player).toHaveAttribute("src", /\/api\/media\/[0-9a-f-]+\?variant=stream$/);
  const transcript = page.getByRole("textbox", { name: "Transcript" });
  // A fresh transcript: the first turn opens at the player's time, 0:00.
  await transcript.fill("");
  await transcript.focus();

  // Ctrl+J opens a turn at the player's time, and closes it when pressed again on that line.
  await page.keyboard.press("Control+j");
  await expect(transcript).toHaveValue(/^\[00:00\.0 - $/);
  await page.keyboard.press("Control+.");
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeGreaterThanOrEqual(5);
  await page.keyboard.press("Control+j");
  await expect(transcript).toHaveValue(/^\[00:00\.0 - 00:0[5-6]\.\d+\] $/);
  await page.keyboard.press("Control+,");
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeLessThan(1);

  // Esc plays and pauses without leaving the text.
  await page.keyboard.press("Escape");
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.paused)).toBe(false);
  await page.keyboard.press("Escape");
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.paused)).toBe(true);
  await expect(transcript).toBeFocused();

  // An empty turn is refused on saving, naming its line.
  const lines = (await transcript.inputValue()).split("\n").length;
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(`Line ${lines}: the turn has no text.`).first()).toBeVisible();
});
