import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemPrincipal } from "../../lib/acl";
import { signatureEntry } from "../../lib/admin/backup/backup-format";
import { exportProject } from "../../lib/admin/backup/export-project";
import { writeZip } from "../../lib/admin/backup/write-zip";
import { readZip } from "../../lib/archive/import/read-zip";
import { openDatabase } from "../../lib/db/database";
import { startScript } from "../support/child-processes";
import { createProject, createRecord, createSection } from "../support/factories";

/**
 * Restoring a project on another installation from the command line: `npm run backup:key` prints
 * the installation's key, `npm run import-project` on a second installation refuses the archive
 * without it (naming the key's id), restores it with `--key`, refuses an unsigned one unless
 * `--trust-unsigned`, and never prints the key. Two embedded installations in data directories,
 * the commands run as real processes.
 */
const scratch = mkdtempSync(join(tmpdir(), "mnemo-backup-key-"));
const installation = (name: string) => ({
  DATABASE_URL: "",
  MNEMO_DATA_DIR: join(scratch, name),
  MNEMO_STORAGE_DIR: join(scratch, name, "media"),
  MNEMO_BACKUP_KEY: "",
  MNEMO_EMBEDDER: "hash",
  MNEMO_ALLOW_HASH_EMBEDDER: "1",
});
const signedFile = join(scratch, "signed.zip");
const unsignedFile = join(scratch, "unsigned.zip");
let slug: string;
let keyId: string;

async function run(script: string, args: string[], env: Record<string, string>) {
  const command = startScript(script, args, env);
  const code = await command.exited;
  return { code, out: command.lines.join("\n"), err: command.errors() };
}

beforeAll(async () => {
  const source = await openDatabase({ dataDir: join(scratch, "a", "pgdata") });
  try {
    const project = await createProject(source.prisma);
    const section = await createSection(source.prisma);
    await createRecord(source.prisma, section, project.id, { title: "Logbook of storms", summary: "Every storm the keeper saw." });
    const backup = await exportProject(source.prisma, source.sql, systemPrincipal, { slug: project.slug, storageDir: installation("a").MNEMO_STORAGE_DIR });
    slug = project.slug;
    keyId = backup.manifest.signing!.keyId;
    writeFileSync(signedFile, backup.bytes);
    const zip = await readZip(backup.bytes, { maxEntries: 100, maxTotalBytes: 10_000_000 });
    const entries = await Promise.all(zip.entries.map(async (entry) => ({ name: entry.name, bytes: await zip.read(entry) })));
    writeFileSync(unsignedFile, writeZip(entries.filter((entry) => entry.name !== signatureEntry)));
  } finally {
    await source.close();
  }
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("npm run backup:key and import-project --key / --trust-unsigned (embedded)", () => {
  it("restores on another installation only with the first one's key, and never prints the key", async () => {
    const printed = await run("scripts/backup-key.ts", [], installation("a"));
    expect(printed.code, printed.err).toBe(0);
    const key = printed.out.trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(printed.err).toContain(`backup key id ${keyId} (this installation's own, kept in its database)`);
    expect(printed.err).not.toContain(key);
    const idOnly = await run("scripts/backup-key.ts", ["--id"], installation("a"));
    expect(idOnly.out.trim()).toBe(keyId);

    const b = installation("b");
    const refused = await run("scripts/import-project.ts", ["--file", signedFile], b);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      new RegExp(`signed by another installation's key \\(id ${keyId}; this installation's is [0-9a-f]{8}\\)\\. Pass that installation's key with --key`),
    );
    const badKey = await run("scripts/import-project.ts", ["--file", signedFile, "--key", "not-a-key-0123"], b);
    expect(badKey.code).toBe(2);
    expect(badKey.err).toMatch(/--key is not a backup key/);
    expect(badKey.err).not.toContain("not-a-key-0123");

    const restored = await run("scripts/import-project.ts", ["--file", signedFile, "--key", key], b);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain(`signature: valid (key id ${keyId})`);
    expect(restored.out).toContain(`created project ${slug}: 1 records`);
    for (const output of [refused.out, refused.err, restored.out, restored.err]) expect(output).not.toContain(key);
  }, 240_000);

  it("refuses an unsigned archive unless --trust-unsigned, and says it was not checked", async () => {
    const b = installation("b");
    const refused = await run("scripts/import-project.ts", ["--file", unsignedFile], b);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/not signed: its signature\.json is missing.*--trust-unsigned/);
    const trusted = await run("scripts/import-project.ts", ["--file", unsignedFile, "--trust-unsigned"], b);
    expect(trusted.code, trusted.err).toBe(0);
    expect(trusted.out).toContain("signature: NOT checked — not signed: its signature.json is missing; restored because of --trust-unsigned");
    expect(trusted.out).toContain(`updated project ${slug}`);
  }, 240_000);
});
