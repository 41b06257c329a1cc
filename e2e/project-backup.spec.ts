import { expect, test } from "@playwright/test";
import { readZip } from "../lib/archive/import/read-zip";
import { signIn } from "./helpers";

/**
 * An admin downloads a project's backup from People and projects: a zip whose manifest names the
 * project and lists every entry, signed (signature.json); a researcher asking for the same URL gets the not-found page.
 */
test("an admin downloads a project's backup; a researcher gets not found", async ({ page, browser }) => {
  await signIn(page, "admin", "/admin/people");
  const link = page.getByTestId("backup-harbour");
  await expect(link).toHaveAttribute("href", "/api/admin/projects/harbour/backup");
  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^mnemo-harbour-\d{8}-\d{6}\.zip$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const zip = await readZip(new Uint8Array(Buffer.concat(chunks)), { maxEntries: 10_000, maxTotalBytes: 1024 * 1024 * 1024 });
  const manifestEntry = zip.entries.find((entry) => entry.name === "manifest.json");
  expect(manifestEntry).toBeDefined();
  const manifest = JSON.parse(Buffer.from(await zip.read(manifestEntry!)).toString("utf8")) as { project: { slug: string }; entries: { name: string }[] };
  expect(manifest.project.slug).toBe("harbour");
  expect(manifest.entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(["project.jsonl", "records.jsonl", "media.jsonl"]));
  // Besides the entries the manifest lists: the manifest itself and its signature.
  expect(zip.entries.length).toBe(manifest.entries.length + 2);
  expect(zip.entries.some((entry) => entry.name === "signature.json")).toBe(true);

  const researcher = await browser.newPage();
  await signIn(researcher, "researcher");
  const response = await researcher.request.get("/api/admin/projects/harbour/backup");
  expect(response.status()).toBe(404);
  await researcher.close();
});
