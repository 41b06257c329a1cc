import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../errors";

/**
 * The project backup's format (docs/architecture.md, "Project backup and restore"): one zip of
 * JSON Lines files, one per table, the media files under `media/<storage key>`, and
 * `manifest.json` naming every other entry with its size and SHA-256 and the key that signs it,
 * and `signature.json`, the manifest's HMAC under that key (backup-signature.ts). A restore reads
 * the manifest first and checks every entry against it and the manifest against its signature
 * before it writes anything.
 */
export const backupFormat = "mnemo-project-backup";
/** Version 2 is signed; version 1 (before backups were signed) is still read, as unsigned. */
export const backupFormatVersion = 2;
const readableVersions = [1, 2];

/** The table files, in the order a restore reads them. */
export const tableEntries = {
  project: "project.jsonl",
  users: "users.jsonl",
  memberships: "memberships.jsonl",
  sections: "sections.jsonl",
  embedGroups: "embed-groups.jsonl",
  records: "records.jsonl",
  links: "record-links.jsonl",
  media: "media.jsonl",
  audit: "audit-events.jsonl",
  vectors: "vectors.jsonl",
  /** The records' history (absent from backups made before it was kept). */
  versions: "record-versions.jsonl",
} as const;
export type TableName = keyof typeof tableEntries;

export const manifestEntry = "manifest.json";
export const signatureEntry = "signature.json";
export const mediaPrefix = "media/";

/** Storage keys as media-storage.ts makes them (`yyyy/mm/<id>.<ext>`): the only media names an archive may hold. */
export const storageKeyPattern = /^\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(backupFormat),
  formatVersion: z.number().int(),
  appVersion: z.string().max(64),
  createdAt: z.string().max(40),
  project: z.object({ id: z.string().max(64), slug: z.string().max(200), name: z.string().max(500) }),
  counts: z.record(z.string().max(40), z.number().int().nonnegative()),
  /** The vectors' index space, when the archive holds them (`--with-vectors`). */
  vectors: z.object({ provider: z.string().max(200), model: z.string().max(500), dimension: z.number().int().positive() }).nullable(),
  /** The key whose HMAC of this manifest is in signature.json (by id; version 2 on). */
  signing: z.object({ algorithm: z.literal("HMAC-SHA-256"), keyId: z.string().regex(/^[0-9a-f]{8}$/) }).optional(),
  entries: z.array(z.object({ name: z.string().min(1).max(1000), bytes: z.number().int().nonnegative(), sha256: sha256Schema })).max(65_534),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Rows as JSON Lines: one JSON object a line, each line ending in a newline. */
export function toJsonLines(rows: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
}

/** JSON Lines back into rows, each checked by `schema`; a bad line is refused naming the entry and line. */
export function parseJsonLines<Schema extends z.ZodType>(bytes: Uint8Array, entry: string, schema: Schema): z.infer<Schema>[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", `The backup's ${entry} is not UTF-8 text.`);
  }
  const rows: z.infer<Schema>[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line === "" && index === lines.length - 1) break;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new AppError("bad_request", `The backup's ${entry}, line ${index + 1}, is not JSON.`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(
        "bad_request",
        `The backup's ${entry}, line ${index + 1}, is not a valid row${issue ? ` (${issue.path.join(".") || "row"}: ${issue.message})` : ""}.`,
      );
    }
    rows.push(parsed.data);
  }
  return rows;
}

/** The manifest for entries about to be written (neither it nor its signature is among them), to be signed by the key `keyId` names. */
export function buildManifest(
  input: Omit<BackupManifest, "entries" | "format" | "formatVersion" | "signing">,
  entries: readonly { name: string; bytes: Uint8Array }[],
  keyId: string,
): BackupManifest {
  return {
    format: backupFormat,
    formatVersion: backupFormatVersion,
    ...input,
    signing: { algorithm: "HMAC-SHA-256", keyId },
    entries: entries.map((entry) => ({ name: entry.name, bytes: entry.bytes.byteLength, sha256: sha256Hex(entry.bytes) })),
  };
}

/** Reads manifest.json: a backup of this format and version, or a refusal saying what it is not. */
export function parseManifest(bytes: Uint8Array | undefined): BackupManifest {
  if (!bytes) throw new AppError("bad_request", `This is not a Mnemo project backup: it has no ${manifestEntry}.`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("bad_request", `The backup's ${manifestEntry} is not JSON.`);
  }
  const header = z.object({ format: z.string(), formatVersion: z.number() }).safeParse(value);
  if (!header.success || header.data.format !== backupFormat)
    throw new AppError("bad_request", `This is not a Mnemo project backup (${manifestEntry} does not say format "${backupFormat}").`);
  if (!readableVersions.includes(header.data.formatVersion)) {
    throw new AppError(
      "bad_request",
      `The backup is format version ${header.data.formatVersion}; this installation restores versions ${readableVersions.join(" and ")} only.`,
    );
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success)
    throw new AppError(
      "bad_request",
      `The backup's ${manifestEntry} is damaged (${parsed.error.issues[0]?.path.join(".") ?? "?"}: ${parsed.error.issues[0]?.message ?? "invalid"}).`,
    );
  // Version 1 was never signed; from version 2 the manifest names its key.
  if (parsed.data.formatVersion === 1) return { ...parsed.data, signing: undefined };
  if (!parsed.data.signing) throw new AppError("bad_request", `The backup's ${manifestEntry} is damaged (signing: it names no key).`);
  return parsed.data;
}

/**
 * Checks the archive's entries against its manifest, all of them, before anything is written:
 * every listed entry present with its size and SHA-256, nothing unlisted, every table present,
 * media entries named as storage keys. The first difference is refused naming the entry.
 */
export function verifyEntries(manifest: BackupManifest, contents: ReadonlyMap<string, Uint8Array>): void {
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    if (listed.has(entry.name)) throw new AppError("bad_request", `The backup's manifest lists ${entry.name} twice.`);
    listed.add(entry.name);
    const bytes = contents.get(entry.name);
    if (!bytes) throw new AppError("bad_request", `The backup is incomplete: ${entry.name} is missing.`);
    if (bytes.byteLength !== entry.bytes || sha256Hex(bytes) !== entry.sha256) {
      throw new AppError("bad_request", `The backup was changed or damaged: ${entry.name} does not match its checksum in the manifest. Nothing was restored.`);
    }
    const isTable = (Object.values(tableEntries) as string[]).includes(entry.name);
    if (!isTable && !(entry.name.startsWith(mediaPrefix) && storageKeyPattern.test(entry.name.slice(mediaPrefix.length)))) {
      throw new AppError("bad_request", `The backup holds an entry Mnemo does not know: ${entry.name}.`);
    }
  }
  for (const name of contents.keys()) {
    if (name !== manifestEntry && name !== signatureEntry && !listed.has(name))
      throw new AppError("bad_request", `The backup holds ${name}, which its manifest does not list. Nothing was restored.`);
  }
  for (const [table, name] of Object.entries(tableEntries)) {
    if (table === "vectors" ? manifest.vectors !== null && !listed.has(name) : !listed.has(name)) {
      throw new AppError("bad_request", `The backup is incomplete: ${name} is missing.`);
    }
  }
}
