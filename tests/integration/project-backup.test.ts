import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { type BackupManifest, manifestEntry, parseManifest, sha256Hex, signatureEntry, verifyEntries } from "../../lib/admin/backup/backup-format";
import { installationBackupKey } from "../../lib/admin/backup/backup-key";
import { type BackupKey, signedManifestEntries } from "../../lib/admin/backup/backup-signature";
import { exportProject, type ProjectBackup } from "../../lib/admin/backup/export-project";
import { restoreProject } from "../../lib/admin/backup/restore-project";
import { resetConfig } from "../../lib/config";
import { writeZip } from "../../lib/admin/backup/write-zip";
import { readZip } from "../../lib/archive/import/read-zip";
import { storagePath } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import type { Database } from "../../lib/db/database";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { projectBackupResponse } from "../../lib/http/project-backup-download";
import {
  addMember,
  createProject,
  createRecord,
  createSection,
  createUser,
  principalOf,
  saveAllGroup,
  storeTestImage,
  temporaryStorageDir,
  testIndexSpace,
} from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Project backup and restore end to end: a project with sections, an embed group, relations,
 * a record edited to version 2, an image, members and an audit trail is indexed and searched,
 * exported, and restored into a second, empty database, indexed there and searched again — the
 * same ranked records for the same queries, keyword and hybrid. A second restore changes no row
 * count; a tampered or malformed archive is refused before anything is written; records of
 * another project never reach the archive. Each database is an installation with its own backup
 * key: the source's archives restore in the target only with the source's key (or trustUnsigned).
 */
const base = createHashEmbedder({ dimension: 64 });
const calls = { texts: 0 };
const embedder: Embedder = { ...base, embed: (texts, kind) => ((calls.texts += kind === "passage" ? texts.length : 0), base.embed(texts, kind)) };
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const secret = "zanzibarquokka";

const peopleFields: FieldDefinition[] = [
  { key: "title", label: "Name", type: "text", required: true, listed: true },
  { key: "biography", label: "Biography", type: "longtext" },
];
const noteFields = (peopleSlug: string): FieldDefinition[] => [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "person", label: "Person", type: "relation", targetSection: peopleSlug, multiple: true },
  { key: "photo", label: "Photo", type: "image", view: "front" },
];

const queries: { query: string; mode: "keyword" | "hybrid" }[] = [
  { query: "lighthouse keeper storms", mode: "keyword" },
  { query: "lighthouse keeper storms", mode: "hybrid" },
  { query: "sardine auction harbour", mode: "hybrid" },
  { query: "weaver looms mill", mode: "keyword" },
  { query: "lamp oil", mode: "hybrid" },
];

let source: Database;
let target: Database;
let sourceSpace: IndexSpace;
let targetSpace: IndexSpace;
let sourceStorage: string;
let targetStorage: string;
let admin: Principal;
let sourceReader: Principal;
let readerEmail: string;
let strangerEmail: string;
let project: { id: string; slug: string };
let other: { id: string; slug: string };
let notes: { id: string; slug: string };
let people: { id: string; slug: string };
let backup: ProjectBackup;
let sourceKey: BackupKey;
let withVectors: ProjectBackup;
const projectRecordIds: string[] = [];
let otherRecordId: string;

const counted = [
  "projects",
  "sections",
  "embed_groups",
  "records",
  "record_links",
  "media",
  "memberships",
  "audit_events",
  "index_queue",
  "users",
  "embedding_cache",
  "record_versions",
];
async function counts(db: Database): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of counted) {
    const [row] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    result[table] = row!.n;
  }
  return result;
}

const encode = (text: string) => new TextEncoder().encode(text);
const textOf = (bytes: Uint8Array) => Buffer.from(bytes).toString();

/** The archive's entries with one replaced (by name) or left out (`null`). */
function replaced(entries: { name: string; bytes: Uint8Array }[], changes: Record<string, Uint8Array | null>) {
  return entries.flatMap((entry) => (entry.name in changes ? (changes[entry.name] ? [{ name: entry.name, bytes: changes[entry.name]! }] : []) : [entry]));
}

async function entriesOf(bytes: Uint8Array) {
  const zip = await readZip(bytes, { maxEntries: 1000, maxTotalBytes: 100_000_000 });
  return Promise.all(zip.entries.map(async (entry) => ({ name: entry.name, bytes: await zip.read(entry) })));
}

async function ranked(db: Database, space: IndexSpace, principal: Principal) {
  const context: SearchContext = { sql: db.sql, embedder, space, prepare: noBridge };
  const results: string[][] = [];
  for (const { query, mode } of queries) {
    const found = await searchArchive(context, principal, { query, mode, limit: 20 });
    results.push(found.hits.map((hit) => `${hit.recordId} ${hit.recordTitle}`));
  }
  return results;
}

const drain = (db: Database, space: IndexSpace) => runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });

beforeAll(async () => {
  source = await openTestDatabase();
  sourceStorage = temporaryStorageDir();
  targetStorage = temporaryStorageDir();
  sourceSpace = await testIndexSpace(source.sql, embedder);
  const { prisma } = source;
  project = await createProject(prisma);
  other = await createProject(prisma, { restricted: true });
  people = await createSection(prisma, peopleFields);
  notes = await createSection(prisma, noteFields(people.slug));
  await saveAllGroup(prisma, source.sql, people.slug, ["title", "biography"]);
  await saveAllGroup(prisma, source.sql, notes.slug, ["title", "summary", "person.title"]);

  const image = await storeTestImage(prisma, project.id, sourceStorage);
  const keeper = await createRecord(prisma, people, project.id, {
    title: "Marta Puig, lighthouse keeper",
    biography: "Kept the lamp through the storms; a weaver's daughter.",
  });
  const logbook = await createRecord(prisma, notes, project.id, {
    title: "Logbook of storms",
    summary: "Every storm the keeper saw, with the lamp oil used.",
    person: [keeper.id],
    photo: image.id,
  });
  projectRecordIds.push(keeper.id, logbook.id);
  for (let index = 0; index < 8; index++) {
    const note = await createRecord(prisma, notes, project.id, {
      title: `Harbour note ${index}`,
      summary: `The sardine auction at the harbour, boats and nets, note ${index}.${index % 3 === 0 ? " A weaver at the looms of the mill." : ""}`,
    });
    projectRecordIds.push(note.id);
  }
  // An edit: version 2, with its audit entry.
  await saveRecord(prisma, systemPrincipal, {
    id: logbook.id,
    version: 1,
    sectionSlug: notes.slug,
    projectId: project.id,
    values: { title: "Logbook of storms", summary: "Every storm the keeper saw, with the lamp oil used, 1921–1934.", person: [keeper.id], photo: image.id },
  });

  // Another project's records, one linking into the project: neither may reach the archive.
  otherRecordId = (
    await createRecord(prisma, people, other.id, { title: `The ${secret} heir`, biography: `Sealed ${secret} correspondence about the lighthouse keeper.` })
  ).id;
  await createRecord(prisma, notes, other.id, { title: `The ${secret} papers`, summary: "Letters to the keeper.", person: [keeper.id] });

  const reader = await createUser(prisma);
  readerEmail = reader.email;
  await addMember(prisma, reader.id, project.id);
  sourceReader = await principalOf(prisma, reader.id);
  const stranger = await createUser(prisma);
  strangerEmail = stranger.email;
  await addMember(prisma, stranger.id, project.id, "editor");
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);

  await drain(source, sourceSpace);
  sourceKey = (await installationBackupKey(source.prisma)).key;
  backup = await exportProject(prisma, source.sql, admin, { slug: project.slug, storageDir: sourceStorage });
  withVectors = await exportProject(prisma, source.sql, admin, { slug: project.slug, storageDir: sourceStorage, withVectors: true });

  target = await openTestDatabase();
  targetSpace = await testIndexSpace(target.sql, embedder);
  // The reader has an account in the target installation; the editor does not.
  await target.prisma.user.create({ data: { email: readerEmail, name: "Reader" } });
}, 240_000);

afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe(`project backup and restore (${testDatabaseMode()})`, () => {
  it("writes a manifest whose checksums match every entry, and nothing of another project", async () => {
    const entries = await entriesOf(backup.bytes);
    const manifest = parseManifest(entries.find((entry) => entry.name === manifestEntry)?.bytes);
    expect(manifest.project.slug).toBe(project.slug);
    expect(manifest.counts).toMatchObject({
      records: projectRecordIds.length,
      media: 1,
      memberships: 2,
      sections: 2,
      embedGroups: 2,
      links: 1,
      versions: projectRecordIds.length + 1,
    });
    expect(manifest.vectors).toBeNull();
    const listed = new Map(manifest.entries.map((entry) => [entry.name, entry.sha256]));
    expect(entries.length).toBe(listed.size + 2);
    for (const entry of entries)
      if (entry.name !== manifestEntry && entry.name !== signatureEntry) expect(sha256Hex(entry.bytes), entry.name).toBe(listed.get(entry.name));
    const text = entries.map((entry) => Buffer.from(entry.bytes).toString("latin1")).join("\n");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(otherRecordId);
    expect(text).not.toContain(other.id);
    // The image's original, under its storage key.
    const media = await source.prisma.media.findFirstOrThrow({ where: { projectId: project.id } });
    expect(entries.find((entry) => entry.name === `media/${media.storageKey}`)?.bytes).toEqual(
      new Uint8Array(readFileSync(storagePath(sourceStorage, media.storageKey))),
    );
    expect(withVectors.manifest.vectors).toMatchObject({ model: embedder.model, dimension: 64 });
  });

  it("refuses a tampered archive by the entry's name and writes nothing", async () => {
    const before = await counts(target);
    const entries = await entriesOf(backup.bytes);
    const tampered = entries.map((entry) =>
      entry.name === "records.jsonl"
        ? { ...entry, bytes: new TextEncoder().encode(Buffer.from(entry.bytes).toString().replace("Logbook of storms", "Logbook of calm")) }
        : entry,
    );
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: writeZip(tampered), storageDir: targetStorage })).rejects.toThrow(
      /records\.jsonl does not match its checksum/,
    );
    expect(await counts(target)).toEqual(before);
    const media = await source.prisma.media.findFirstOrThrow({ where: { projectId: project.id } });
    expect(existsSync(storagePath(targetStorage, media.storageKey))).toBe(false);
  });

  it("refuses malformed archives with a clear message, writing nothing", async () => {
    const before = await counts(target);
    const entries = await entriesOf(backup.bytes);
    const manifest = JSON.parse(Buffer.from(entries.find((entry) => entry.name === manifestEntry)!.bytes).toString()) as Record<string, unknown> & {
      entries: { name: string }[];
    };
    const withManifest = (value: unknown, rest = entries.filter((entry) => entry.name !== manifestEntry)) =>
      writeZip([{ name: manifestEntry, bytes: new TextEncoder().encode(JSON.stringify(value)) }, ...rest]);
    const cases: [string, Uint8Array, RegExp][] = [
      ["not a zip", new TextEncoder().encode("title,summary\nA,B\n"), /not a zip file/],
      ["no manifest", writeZip(entries.filter((entry) => entry.name !== manifestEntry)), /not a Mnemo project backup/],
      ["another format version", withManifest({ ...manifest, formatVersion: 99 }), /format version 99/],
      [
        "an entry missing",
        withManifest(
          manifest,
          entries.filter((entry) => entry.name !== manifestEntry && entry.name !== "media.jsonl"),
        ),
        /media\.jsonl is missing/,
      ],
      [
        "an unlisted entry",
        writeZip([...entries, { name: "extra.jsonl", bytes: new TextEncoder().encode("{}\n") }]),
        /extra\.jsonl, which its manifest does not list/,
      ],
      ["a zip-slip name", writeZip([...entries, { name: "../../etc/cron.d/evil", bytes: new TextEncoder().encode("x") }]), /points outside the zip/],
      [
        "a table left out of the manifest",
        withManifest({ ...manifest, entries: manifest.entries.filter((entry) => entry.name !== "records.jsonl") }),
        /records\.jsonl, which its manifest does not list/,
      ],
    ];
    for (const [label, bytes, message] of cases) {
      await expect(restoreProject(target.prisma, systemPrincipal, { bytes, storageDir: targetStorage }), label).rejects.toThrow(message);
    }
    await expect(
      restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, asSlug: "../Etc", keys: [sourceKey] }),
    ).rejects.toThrow(/Slug/);
    expect(await counts(target)).toEqual(before);
  });

  it("signs the manifest with the installation's key, which is nowhere in the archive", async () => {
    expect(backup.manifest.signing).toEqual({ algorithm: "HMAC-SHA-256", keyId: sourceKey.id });
    expect((await installationBackupKey(source.prisma)).key.id).toBe(sourceKey.id);
    const hex = sourceKey.toHex();
    const raw = Buffer.from(hex, "hex");
    const forms = [hex, hex.toUpperCase(), raw.toString("base64"), raw.toString("base64url"), raw.toString("latin1")];
    for (const archive of [backup, withVectors]) {
      const entries = await entriesOf(archive.bytes);
      expect(entries.map((entry) => entry.name).slice(0, 2)).toEqual([manifestEntry, signatureEntry]);
      for (const bytes of [archive.bytes, ...entries.map((entry) => entry.bytes)]) {
        const text = Buffer.from(bytes).toString("latin1");
        for (const form of forms) expect(text.includes(form)).toBe(false);
      }
    }
    // Nor in the audit trail of the backups made.
    const trail = await source.prisma.auditEvent.findMany({ where: { action: "project.backup" } });
    expect(trail.length).toBeGreaterThan(0);
    expect(JSON.stringify(trail)).not.toContain(hex);
  });

  it("refuses a record edited with its checksums recomputed, trusted or not, and writes nothing", async () => {
    const before = await counts(target);
    const entries = await entriesOf(backup.bytes);
    const manifest = JSON.parse(textOf(entries.find((entry) => entry.name === manifestEntry)!.bytes)) as BackupManifest;
    const edited = encode(textOf(entries.find((entry) => entry.name === "records.jsonl")!.bytes).replace("Logbook of storms", "Logbook of calm"));
    const forgedManifest = {
      ...manifest,
      entries: manifest.entries.map((entry) => (entry.name === "records.jsonl" ? { ...entry, bytes: edited.byteLength, sha256: sha256Hex(edited) } : entry)),
    };
    const forged = replaced(entries, { [manifestEntry]: encode(`${JSON.stringify(forgedManifest, null, 2)}\n`), "records.jsonl": edited });
    // Every checksum matches: only the signature tells.
    expect(() =>
      verifyEntries(parseManifest(forged.find((entry) => entry.name === manifestEntry)!.bytes), new Map(forged.map((entry) => [entry.name, entry.bytes]))),
    ).not.toThrow();
    for (const trustUnsigned of [false, true]) {
      await expect(
        restoreProject(target.prisma, systemPrincipal, { bytes: writeZip(forged), storageDir: targetStorage, keys: [sourceKey], trustUnsigned }),
      ).rejects.toThrow(
        new RegExp(`signature does not match its manifest \\(key id ${sourceKey.id}\\): the archive was changed after it was made\\. Nothing was restored\\.`),
      );
    }
    expect(await counts(target)).toEqual(before);
    const media = await source.prisma.media.findFirstOrThrow({ where: { projectId: project.id } });
    expect(existsSync(storagePath(targetStorage, media.storageKey))).toBe(false);
  });

  it("refuses a history that does not fit its records (signed, so only the rows tell), writing nothing", async () => {
    const before = await counts(target);
    const entries = await entriesOf(backup.bytes);
    const manifest = JSON.parse(textOf(entries.find((entry) => entry.name === manifestEntry)!.bytes)) as BackupManifest;
    const rows = textOf(entries.find((entry) => entry.name === "record-versions.jsonl")!.bytes)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...rows[0]!, recordId: otherRecordId }, /holds a version of record .*, which it does not hold/],
      [{ ...rows[0]!, version: 99 }, /holds version 99 of record .*, above the record's own version/],
      [{ ...rows[0]! }, /holds the record history row of .* twice/],
    ];
    for (const [row, message] of cases) {
      const bytes = encode([...rows, row].map((item) => `${JSON.stringify(item)}\n`).join(""));
      const files = replaced(entries, { [manifestEntry]: null, [signatureEntry]: null, "record-versions.jsonl": bytes });
      const resigned = { ...manifest, entries: files.map((entry) => ({ name: entry.name, bytes: entry.bytes.byteLength, sha256: sha256Hex(entry.bytes) })) };
      const archive = writeZip([...signedManifestEntries(resigned, sourceKey), ...files]);
      await expect(restoreProject(target.prisma, systemPrincipal, { bytes: archive, storageDir: targetStorage, keys: [sourceKey] })).rejects.toThrow(message);
    }
    expect(await counts(target)).toEqual(before);
  });

  it("refuses a tampered signature, trusted or not", async () => {
    const before = await counts(target);
    const entries = await entriesOf(backup.bytes);
    const signature = JSON.parse(textOf(entries.find((entry) => entry.name === signatureEntry)!.bytes)) as { algorithm: string; manifestHmac: string };
    const last = signature.manifestHmac.at(-1) === "0" ? "1" : "0";
    const tampered = replaced(entries, {
      [signatureEntry]: encode(JSON.stringify({ ...signature, manifestHmac: `${signature.manifestHmac.slice(0, -1)}${last}` })),
    });
    const damaged = replaced(entries, { [signatureEntry]: encode("not a signature") });
    for (const trustUnsigned of [false, true]) {
      await expect(
        restoreProject(target.prisma, systemPrincipal, { bytes: writeZip(tampered), storageDir: targetStorage, keys: [sourceKey], trustUnsigned }),
      ).rejects.toThrow(/signature does not match its manifest/);
      await expect(
        restoreProject(target.prisma, systemPrincipal, { bytes: writeZip(damaged), storageDir: targetStorage, keys: [sourceKey], trustUnsigned }),
      ).rejects.toThrow(/signature\.json is damaged/);
    }
    expect(await counts(target)).toEqual(before);
  });

  it("restores into an empty database with identical search results, keyword and hybrid", async () => {
    const expected = await ranked(source, sourceSpace, sourceReader);
    expect(expected.every((hits) => hits.length > 0)).toBe(true);
    // Another installation: refused without the source's key, naming both keys' ids.
    const before = await counts(target);
    const targetKey = (await installationBackupKey(target.prisma)).key;
    expect(targetKey.id).not.toBe(sourceKey.id);
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage })).rejects.toThrow(
      new RegExp(
        `signed by another installation's key \\(id ${sourceKey.id}; this installation's is ${targetKey.id}\\)\\. Pass that installation's key with --key`,
      ),
    );
    expect(await counts(target)).toEqual(before);
    const report = await restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, keys: [sourceKey] });
    expect(report.signature).toEqual({ status: "signed", keyId: sourceKey.id });
    expect(report).toMatchObject({
      slug: project.slug,
      createdProject: true,
      records: projectRecordIds.length,
      links: 1,
      danglingLinks: 0,
      media: 1,
      mediaFilesWritten: 1,
      memberships: 1,
      unknownMembers: [strangerEmail],
      queued: projectRecordIds.length,
      vectors: "not in the backup",
    });
    await drain(target, targetSpace);
    const reader = await principalOf(target.prisma, (await target.prisma.user.findUniqueOrThrow({ where: { email: readerEmail } })).id);
    expect(await ranked(target, targetSpace, reader)).toEqual(expected);

    const logbook = await target.prisma.record.findUniqueOrThrow({ where: { id: projectRecordIds[1]! } });
    expect(logbook.version).toBe(2);
    // Its history came along: both versions as the source kept them (when, through what, what they said).
    const historyOf = async (db: Database) =>
      (await db.prisma.recordVersion.findMany({ where: { recordId: logbook.id }, orderBy: { version: "asc" } })).map((version) => ({
        version: version.version,
        via: version.via,
        savedAt: version.savedAt,
        title: version.title,
        values: version.values,
        details: version.details,
      }));
    expect(await historyOf(target)).toEqual(await historyOf(source));
    expect((await historyOf(target)).map((version) => version.version)).toEqual([1, 2]);
    expect(report.versions).toBe(projectRecordIds.length + 1);
    const media = await target.prisma.media.findFirstOrThrow({ where: { projectId: project.id } });
    expect(sha256Hex(readFileSync(storagePath(targetStorage, media.storageKey)))).toBe(media.sha256);
    const trail = await target.prisma.auditEvent.findMany({ where: { projectId: project.id } });
    expect(trail.filter((event) => event.targetId === logbook.id).length).toBeGreaterThanOrEqual(2);
    expect(trail.some((event) => event.action === "project.restore")).toBe(true);
  });

  it("is idempotent: a second restore leaves every row count as it was", async () => {
    const before = await counts(target);
    const report = await restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, keys: [sourceKey] });
    expect(report).toMatchObject({ createdProject: false, mediaFilesWritten: 0 });
    expect(await counts(target)).toEqual({ ...before, index_queue: before.index_queue! + projectRecordIds.length });
    await drain(target, targetSpace);
    expect(await counts(target)).toEqual(before);
  });

  it("restores over a record changed since as a new version above both, kept in its history; a second run writes nothing", async () => {
    const logbookId = projectRecordIds[1]!;
    const archived = await target.prisma.record.findUniqueOrThrow({ where: { id: logbookId }, include: { section: true } });
    await saveRecord(target.prisma, systemPrincipal, {
      id: logbookId,
      version: archived.version,
      sectionSlug: archived.section.slug,
      projectId: archived.projectId,
      values: { ...(archived.values as Record<string, unknown>), title: "Logbook, renamed here" },
    });
    await restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, keys: [sourceKey] });
    const restored = await target.prisma.record.findUniqueOrThrow({ where: { id: logbookId } });
    expect(restored).toMatchObject({ title: archived.title, version: archived.version + 2 });
    const history = async () =>
      target.prisma.recordVersion.findMany({ where: { recordId: logbookId, version: { gt: archived.version } }, orderBy: { version: "asc" } });
    expect((await history()).map((version) => [version.version, version.via, version.title])).toEqual([
      [archived.version + 1, "form", "Logbook, renamed here"],
      [archived.version + 2, "project-restore", archived.title],
    ]);
    expect((await history())[1]?.details).toEqual({ archivedSlug: project.slug });
    expect(await target.prisma.recordVersion.count({ where: { recordId: logbookId, version: { lte: archived.version } } })).toBe(archived.version);
    const before = await counts(target);
    await restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, keys: [sourceKey] });
    expect((await target.prisma.record.findUniqueOrThrow({ where: { id: logbookId } })).version).toBe(archived.version + 2);
    expect((await counts(target)).record_versions).toBe(before.record_versions);
    await drain(target, targetSpace);
  });

  it("refuses an unsigned archive, older backups included, and restores it when the admin trusts it", async () => {
    const entries = await entriesOf(backup.bytes);
    const manifest = JSON.parse(textOf(entries.find((entry) => entry.name === manifestEntry)!.bytes)) as BackupManifest;
    const stripped = writeZip(replaced(entries, { [signatureEntry]: null }));
    // A backup made before signing: format version 1, no key named, no signature.
    const unsignedManifest: BackupManifest = { ...manifest, formatVersion: 1 };
    delete unsignedManifest.signing;
    const version1 = writeZip(replaced(entries, { [manifestEntry]: encode(JSON.stringify(unsignedManifest)), [signatureEntry]: null }));
    const before = await counts(target);
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: stripped, storageDir: targetStorage, keys: [sourceKey] })).rejects.toThrow(
      /not signed: its signature\.json is missing.*--trust-unsigned/,
    );
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: version1, storageDir: targetStorage, keys: [sourceKey] })).rejects.toThrow(
      /not signed: made before Mnemo signed backups \(format version 1\).*--trust-unsigned/,
    );
    expect(await counts(target)).toEqual(before);
    const old = await restoreProject(target.prisma, systemPrincipal, { bytes: version1, storageDir: targetStorage, trustUnsigned: true });
    expect(old.signature).toEqual({ status: "unverified", keyId: null, reason: "not signed: made before Mnemo signed backups (format version 1)" });
    expect(old).toMatchObject({ createdProject: false, records: projectRecordIds.length });
    const trusted = await restoreProject(target.prisma, systemPrincipal, { bytes: stripped, storageDir: targetStorage, trustUnsigned: true });
    expect(trusted.signature).toMatchObject({ status: "unverified", keyId: sourceKey.id });
    await drain(target, targetSpace);
  });

  it("checks with MNEMO_BACKUP_KEY instead of the installation's own key when it is set", async () => {
    const own = (await installationBackupKey(target.prisma)).key.id;
    process.env.MNEMO_BACKUP_KEY = sourceKey.toHex();
    resetConfig();
    try {
      expect(await installationBackupKey(target.prisma)).toMatchObject({ source: "environment", key: { id: sourceKey.id } });
      const report = await restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage });
      expect(report.signature).toEqual({ status: "signed", keyId: sourceKey.id });
      // …and signs this installation's backups with it.
      const made = await exportProject(target.prisma, target.sql, systemPrincipal, { slug: project.slug, storageDir: targetStorage });
      expect(made.manifest.signing?.keyId).toBe(sourceKey.id);
    } finally {
      delete process.env.MNEMO_BACKUP_KEY;
      resetConfig();
    }
    expect((await installationBackupKey(target.prisma)).key.id).toBe(own);
    await drain(target, targetSpace);
  });

  it("restores the embeddings with --with-vectors, so indexing calls no model", async () => {
    const third = await openTestDatabase();
    try {
      const space = await testIndexSpace(third.sql, embedder);
      // A new installation makes its key once, however many ask at the same time.
      const made = await Promise.all([1, 2, 3].map(() => installationBackupKey(third.prisma)));
      expect(new Set(made.map((each) => each.key.id)).size).toBe(1);
      expect(made[0]!.key.id).not.toBe(sourceKey.id);
      expect(await third.prisma.installationSecret.count()).toBe(1);
      const report = await restoreProject(third.prisma, systemPrincipal, { bytes: withVectors.bytes, storageDir: temporaryStorageDir(), keys: [sourceKey] });
      expect(report.vectors).toMatch(/^restored \(\d+ embeddings/);
      calls.texts = 0;
      await drain(third, space);
      expect(calls.texts).toBe(0);
      const [row] = await third.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE index_space_id = $1 AND embedding IS NOT NULL`, [
        space.id,
      ]);
      expect(row!.n).toBeGreaterThan(0);
      const admin3 = await principalOf(third.prisma, (await createUser(third.prisma, { role: "admin" })).id);
      const targetAdmin = await principalOf(target.prisma, (await createUser(target.prisma, { role: "admin" })).id);
      expect(await ranked(third, space, admin3)).toEqual(await ranked(target, targetSpace, targetAdmin));
    } finally {
      await third.close();
    }
  }, 120_000);

  it("keeps a link to another project's record as an id only, and leaves it out where that record is missing", async () => {
    const linking = await createRecord(source.prisma, notes, project.id, {
      title: "Cross-reference",
      summary: "See the sealed papers.",
      person: [otherRecordId],
    });
    const again = await exportProject(source.prisma, source.sql, admin, { slug: project.slug, storageDir: sourceStorage });
    const entries = await entriesOf(again.bytes);
    const links = Buffer.from(entries.find((entry) => entry.name === "record-links.jsonl")!.bytes).toString();
    expect(links).toContain(`"targetId":"${otherRecordId}","external":true`);
    expect(entries.map((entry) => Buffer.from(entry.bytes).toString("latin1")).join("\n")).not.toContain(secret);
    const report = await restoreProject(target.prisma, systemPrincipal, { bytes: again.bytes, storageDir: targetStorage, keys: [sourceKey] });
    expect(report).toMatchObject({ danglingLinks: 1, records: projectRecordIds.length + 1, relinked: 0 });
    // The restore says which project to bring for the link to resolve.
    const otherProject = await source.prisma.project.findUniqueOrThrow({ where: { id: other.id } });
    expect(report.missingProjects).toEqual([{ slug: other.slug, name: otherProject.name, links: 1 }]);
    expect(await target.prisma.recordLink.count({ where: { sourceId: linking.id } })).toBe(0);
    // Kept in the record's value, as written, for a later restore of that project.
    const restored = await target.prisma.record.findUniqueOrThrow({ where: { id: linking.id } });
    expect((restored.values as Record<string, unknown>).person).toEqual([otherRecordId]);
  });

  it("resolves those links when the project they point into is restored later, and indexes their records again", async () => {
    const linking = await target.prisma.record.findFirstOrThrow({ where: { title: "Cross-reference" } });
    const linkingId = linking.id;
    expect(await target.prisma.recordLink.count({ where: { sourceId: linkingId } })).toBe(0);
    // Edited meanwhile by an editor, whose form cannot show a link to a record not here: the
    // waiting link stays in the value, without a link row.
    const editor = await createUser(target.prisma, { role: "curator" });
    await addMember(target.prisma, editor.id, linking.projectId, "editor");
    await saveRecord(target.prisma, await principalOf(target.prisma, editor.id), {
      id: linkingId,
      version: linking.version,
      sectionSlug: notes.slug,
      projectId: linking.projectId,
      values: { title: "Cross-reference", summary: "See the sealed papers, edited.", person: [] },
    });
    const edited = await target.prisma.record.findUniqueOrThrow({ where: { id: linkingId } });
    expect(edited.values).toMatchObject({ summary: "See the sealed papers, edited.", person: [otherRecordId] });
    expect(await target.prisma.recordLink.count({ where: { sourceId: linkingId } })).toBe(0);
    await drain(target, targetSpace);
    const otherBackup = await exportProject(source.prisma, source.sql, admin, { slug: other.slug, storageDir: sourceStorage });
    const report = await restoreProject(target.prisma, systemPrincipal, { bytes: otherBackup.bytes, storageDir: targetStorage, keys: [sourceKey] });
    // Its own link into the first project resolves at once; the first project's link into it is made now.
    expect(report).toMatchObject({ danglingLinks: 0, missingProjects: [], relinked: 1 });
    expect(await target.prisma.recordLink.findMany({ where: { sourceId: linkingId }, select: { targetId: true } })).toEqual([{ targetId: otherRecordId }]);
    const queued = await target.prisma.indexQueueItem.findMany({ where: { recordId: linkingId } });
    expect(queued).toHaveLength(1);
    await drain(target, targetSpace);
    // Indexed again with the target's label in its passage, and only for those who may read the target's project.
    const [passage] = await target.sql.query<{ text: string; contributing_project_ids: string[] }>(
      `SELECT text, contributing_project_ids FROM chunks WHERE record_id = $1 AND text LIKE '%heir%'`,
      [linkingId],
    );
    expect(passage?.contributing_project_ids).toContain(other.id);
  });

  it("refuses to merge a section whose fields differ, naming the field, and writes nothing", async () => {
    const section = await target.prisma.section.findUniqueOrThrow({ where: { slug: notes.slug } });
    const fields = (section.fields as FieldDefinition[]).map((field) => (field.key === "summary" ? { ...field, type: "text" as const } : field));
    await target.prisma.section.update({ where: { id: section.id }, data: { fields } });
    const before = await counts(target);
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: targetStorage, keys: [sourceKey] })).rejects.toThrow(
      new RegExp(`section “${notes.slug}” exists here with other fields: the backup's field “summary” \\(longtext\\)`),
    );
    expect(await counts(target)).toEqual(before);
    await target.prisma.section.update({ where: { id: section.id }, data: { fields: section.fields as FieldDefinition[] } });
  });

  it("refuses a catalogue number that another record holds here, writing nothing", async () => {
    const keeperId = projectRecordIds[0]!;
    await source.prisma.record.update({ where: { id: keeperId }, data: { externalId: "PEOPLE-1" } });
    const archive = await exportProject(source.prisma, source.sql, admin, { slug: project.slug, storageDir: sourceStorage });
    const [otherHere] = await target.prisma.project
      .findMany({ where: { slug: "elsewhere" } })
      .then(async (found) => (found.length ? found : [await target.prisma.project.create({ data: { slug: "elsewhere", name: "Elsewhere" } })]));
    const section = await target.prisma.section.findUniqueOrThrow({ where: { slug: people.slug } });
    const holder = await target.prisma.record.create({
      data: { sectionId: section.id, projectId: otherHere!.id, title: "Someone else", values: { title: "Someone else" }, externalId: "PEOPLE-1" },
    });
    const before = await counts(target);
    await expect(restoreProject(target.prisma, systemPrincipal, { bytes: archive.bytes, storageDir: targetStorage, keys: [sourceKey] })).rejects.toThrow(
      new RegExp(`“PEOPLE-1” is already record ${holder.id}`),
    );
    expect(await counts(target)).toEqual(before);
  });

  it("refuses to copy a project within its own installation under another slug", async () => {
    const before = await counts(source);
    await expect(restoreProject(source.prisma, systemPrincipal, { bytes: backup.bytes, storageDir: sourceStorage, asSlug: "copy-of-notes" })).rejects.toThrow(
      /already holds the archived project/,
    );
    expect(await counts(source)).toEqual(before);
  });

  it("downloads as a zip for an admin; anyone else and a missing project get the same 404", async () => {
    const response = await projectBackupResponse(source, admin, { slug: project.slug, storageDir: sourceStorage });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(new RegExp(`attachment; filename="mnemo-${project.slug}-`));
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(parseManifest((await entriesOf(bytes)).find((entry) => entry.name === manifestEntry)?.bytes).project.id).toBe(project.id);
    const nobody = await principalOf(source.prisma, (await createUser(source.prisma)).id);
    for (const principal of [sourceReader, nobody]) {
      await expect(projectBackupResponse(source, principal, { slug: project.slug, storageDir: sourceStorage })).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(projectBackupResponse(source, admin, { slug: "no-such-project", storageDir: sourceStorage })).rejects.toMatchObject({ code: "not_found" });
  });
});
