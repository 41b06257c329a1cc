import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const fixture = (name: string) => ({
  name,
  mimeType: name.endsWith(".xml") ? "application/xml" : "text/vtt",
  buffer: readFileSync(new URL(`../tests/fixtures/transcripts/${name}`, import.meta.url)),
});

test("a curator imports a WebVTT transcript and an OHMS index in the editor, saves, and sees the turns and segments", async ({ page }) => {
  await signIn(page, "curator");
  await page.goto("/records/new?section=oral-histories");
  const title = `E2E imported interview ${Date.now()}`;
  await page.getByLabel("Project").selectOption({ label: "Public Collections" });
  await page.getByLabel("Title").fill(title);
  const transcript = page.getByLabel("Transcript", { exact: true });
  const index = page.getByLabel("Index", { exact: true });
  const importer = page.getByLabel("Import transcript file…");

  // A malformed file changes nothing and names its lines.
  await transcript.fill("[00:00 - 00:02] Marta: Unchanged.");
  await importer.setInputFiles(fixture("malformed.vtt"));
  const alert = page.getByRole("alert").filter({ hasText: "malformed.vtt was not imported" });
  await expect(alert).toContainText("Line 12: The cue ends (00:07.000) before it starts (00:09.000).");
  await expect(alert).toContainText("Line 23:");
  await expect(transcript).toHaveValue("[00:00 - 00:02] Marta: Unchanged.");

  await importer.setInputFiles(fixture("entrevista-riada.vtt"));
  await expect(page.getByRole("status").filter({ hasText: "filled in 5 turns" })).toBeVisible();
  await expect(transcript).toHaveValue(/^\[00:00\.0 - 00:04\.5\] Entrevistadora: Bon dia, Roser\./);
  await expect(transcript).toHaveValue(/Roser Vidal: Vaig néixer a Sant Romà de Sau/);

  // An OHMS export fills the index too (and its own transcript replaces the WebVTT one).
  await importer.setInputFiles(fixture("ohms-laciana.xml"));
  await expect(page.getByRole("status").filter({ hasText: "3 index segments" })).toBeVisible();
  await expect(index).toHaveValue(/^\[02:15\.0 - 04:10\.0\] El cierre del pozo/m);
  await importer.setInputFiles(fixture("entrevista-riada.vtt"));
  await expect(index).toHaveValue(/Infancia en Villablino/);

  await page.getByRole("button", { name: "Create record" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText("Roser Vidal:").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Index" })).toContainText("El lavadero de carbón");

  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete record" }).click();
  await expect(page).toHaveURL(/\/records$/);
});
