import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readZip } from "../../archive/import/read-zip";
import {
  backupFormatVersion,
  buildManifest,
  manifestEntry,
  parseJsonLines,
  parseManifest,
  sha256Hex,
  signatureEntry,
  tableEntries,
  toJsonLines,
  verifyEntries,
} from "./backup-format";
import { writeZip } from "./write-zip";

const encode = (text: string) => new TextEncoder().encode(text);
const keyId = "0a1b2c3d";
const header = {
  appVersion: "0.1.0",
  createdAt: "2026-12-05T04:00:00.000Z",
  project: { id: "p1", slug: "harbour", name: "Harbour" },
  counts: {},
  vectors: null,
};

function tables(extra: Record<string, Uint8Array> = {}) {
  const files: { name: string; bytes: Uint8Array }[] = Object.entries(tableEntries)
    .filter(([table]) => table !== "vectors")
    .map(([, name]) => ({ name, bytes: toJsonLines([{ name }]) }));
  for (const [name, bytes] of Object.entries(extra)) files.push({ name, bytes });
  return files;
}

describe("backup manifest and checksums", () => {
  it("lists every entry with its size and SHA-256, and verifies an untouched archive", () => {
    const files = tables({ "media/2026/12/0f8fad5b-d9cb-469f-a165-70867728950e.png": encode("png bytes") });
    const manifest = buildManifest(header, files, keyId);
    expect(manifest.formatVersion).toBe(backupFormatVersion);
    expect(manifest.entries.find((entry) => entry.name === "records.jsonl")).toEqual({
      name: "records.jsonl",
      bytes: files.find((file) => file.name === "records.jsonl")!.bytes.byteLength,
      sha256: sha256Hex(files.find((file) => file.name === "records.jsonl")!.bytes),
    });
    expect(manifest.signing).toEqual({ algorithm: "HMAC-SHA-256", keyId });
    expect(() => verifyEntries(manifest, new Map(files.map((file) => [file.name, file.bytes])))).not.toThrow();
    // The signature beside the manifest is not one of the entries it lists.
    expect(() => verifyEntries(manifest, new Map([...files.map((file) => [file.name, file.bytes] as const), [signatureEntry, encode("{}")]]))).not.toThrow();
  });

  it("refuses a changed, missing, unlisted or unknown entry by name", () => {
    const files = tables();
    const manifest = buildManifest(header, files, keyId);
    const contents = () => new Map<string, Uint8Array>(files.map((file) => [file.name, file.bytes]));
    const changed = contents();
    changed.set("records.jsonl", encode('{"name":"records.jsonl!"}\n'));
    expect(() => verifyEntries(manifest, changed)).toThrow(/records\.jsonl does not match its checksum/);
    const missing = contents();
    missing.delete("media.jsonl");
    expect(() => verifyEntries(manifest, missing)).toThrow(/media\.jsonl is missing/);
    const unlisted = contents();
    unlisted.set("notes.txt", encode("hello"));
    expect(() => verifyEntries(manifest, unlisted)).toThrow(/notes\.txt, which its manifest does not list/);
    const strange = [...files, { name: "media/../../etc/passwd", bytes: encode("x") }];
    expect(() => verifyEntries(buildManifest(header, strange, keyId), new Map(strange.map((file) => [file.name, file.bytes])))).toThrow(
      /an entry Mnemo does not know: media\/\.\.\/\.\.\/etc\/passwd/,
    );
    const withoutRecords = files.filter((file) => file.name !== "records.jsonl");
    expect(() => verifyEntries(buildManifest(header, withoutRecords, keyId), new Map(withoutRecords.map((file) => [file.name, file.bytes])))).toThrow(
      /records\.jsonl is missing/,
    );
    expect(() => verifyEntries(buildManifest({ ...header, vectors: { provider: "hash", model: "m", dimension: 8 } }, files, keyId), contents())).toThrow(
      /vectors\.jsonl is missing/,
    );
  });

  it("reads only a manifest of its own format and version", () => {
    expect(() => parseManifest(undefined)).toThrow(/has no manifest\.json/);
    expect(() => parseManifest(encode("{"))).toThrow(/not JSON/);
    expect(() => parseManifest(encode(JSON.stringify({ format: "other", formatVersion: 1 })))).toThrow(/not a Mnemo project backup/);
    expect(() => parseManifest(encode(JSON.stringify({ ...buildManifest(header, [], keyId), formatVersion: 3 })))).toThrow(
      /format version 3; this installation restores versions 1 and 2 only/,
    );
    // Version 1 (before signing) is read, as unsigned whatever it says; version 2 must name its key.
    expect(parseManifest(encode(JSON.stringify({ ...buildManifest(header, [], keyId), formatVersion: 1 }))).signing).toBeUndefined();
    expect(() => parseManifest(encode(JSON.stringify({ ...buildManifest(header, [], keyId), signing: undefined })))).toThrow(
      /damaged \(signing: it names no key\)/,
    );
    expect(() => parseManifest(encode(JSON.stringify({ ...buildManifest(header, [], keyId), entries: [{ name: "x", bytes: -1, sha256: "no" }] })))).toThrow(
      /damaged/,
    );
    expect(parseManifest(encode(JSON.stringify(buildManifest(header, tables(), keyId)))).project.slug).toBe("harbour");
  });

  it("round-trips JSON Lines and refuses a bad line by entry and line number", () => {
    const schema = z.object({ id: z.string(), n: z.number() });
    const rows = [
      { id: "a", n: 1 },
      { id: "b\nc", n: 2 },
    ];
    expect(parseJsonLines(toJsonLines(rows), "x.jsonl", schema)).toEqual(rows);
    expect(parseJsonLines(new Uint8Array(), "x.jsonl", schema)).toEqual([]);
    expect(() => parseJsonLines(encode('{"id":"a","n":1}\n{"id":"b"\n'), "x.jsonl", schema)).toThrow(/x\.jsonl, line 2, is not JSON/);
    expect(() => parseJsonLines(encode('{"id":"a","n":"one"}\n'), "x.jsonl", schema)).toThrow(/x\.jsonl, line 1, is not a valid row \(n:/);
    expect(() => parseJsonLines(new Uint8Array([0xff, 0xfe]), "x.jsonl", schema)).toThrow(/not UTF-8/);
  });

  it("writes zips the import's reader reads back byte for byte, stored or deflated", async () => {
    const random = new Uint8Array(4096).map((_, index) => (index * 2654435761) >>> 24);
    const files = [
      { name: manifestEntry, bytes: encode("{}") },
      { name: "records.jsonl", bytes: encode("{}\n".repeat(500)) },
      { name: "media/2026/12/0f8fad5b-d9cb-469f-a165-70867728950e.bin", bytes: random },
      { name: "empty.jsonl", bytes: new Uint8Array() },
    ];
    const zip = await readZip(writeZip(files), { maxEntries: 10, maxTotalBytes: 1_000_000 });
    expect(zip.entries.map((entry) => entry.name)).toEqual(files.map((file) => file.name));
    expect(zip.entries.find((entry) => entry.name === "records.jsonl")?.method).toBe(8);
    for (const [index, entry] of zip.entries.entries()) expect(await zip.read(entry)).toEqual(files[index]!.bytes);
  });
});
