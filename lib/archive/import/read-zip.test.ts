import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeZip } from "../../../tests/support/zip-writer";
import { readZip } from "./read-zip";

const limits = { maxEntries: 100, maxTotalBytes: 1024 * 1024 };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("readZip", () => {
  it("reads stored and deflated entries, in folders, and leaves directories out", async () => {
    const long = "mnemo ".repeat(5000);
    const zip = await readZip(
      writeZip([
        { name: "photos/", bytes: "" },
        { name: "photos/a.txt", bytes: "stored", method: "store" },
        { name: "b.txt", bytes: long },
        { name: "empty.txt", bytes: "" },
      ]),
      limits,
    );
    expect(zip.entries.map((entry) => entry.name)).toEqual(["photos/a.txt", "b.txt", "empty.txt"]);
    expect(text(await zip.read(zip.entries[0]!))).toBe("stored");
    expect(text(await zip.read(zip.entries[1]!))).toBe(long);
    expect(zip.entries[1]!.compressedSize).toBeLessThan(long.length / 10);
    expect((await zip.read(zip.entries[2]!)).length).toBe(0);
  });

  // .ci/run installs Debian's zip for this test: an archive made by another writer than ours.
  it("reads a zip made by Info-ZIP's zip, with an archive comment", async () => {
    const folder = mkdtempSync(join(tmpdir(), "mnemo-zip-"));
    try {
      writeFileSync(join(folder, "one.txt"), "first file\n".repeat(100));
      writeFileSync(join(folder, "two.txt"), "second");
      execFileSync("/usr/bin/zip", ["-q", "-z", join(folder, "made.zip"), "one.txt", "two.txt"], { cwd: folder, input: "a comment\n" });
      const zip = await readZip(new Uint8Array(readFileSync(join(folder, "made.zip"))), limits);
      expect(zip.entries.map((entry) => entry.name)).toEqual(["one.txt", "two.txt"]);
      expect(text(await zip.read(zip.entries[0]!))).toBe("first file\n".repeat(100));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not a zip, and a truncated zip", async () => {
    expect(await refusal(() => readZip(new TextEncoder().encode("id,title\n1,Letter\n"), limits))).toMatch(/is not a zip file/);
    expect(await refusal(() => readZip(new Uint8Array(10), limits))).toMatch(/is not a zip file/);
    const whole = writeZip([{ name: "a.txt", bytes: "hello" }]);
    expect(await refusal(() => readZip(whole.subarray(0, whole.length - 5), limits))).toMatch(/is not a zip file/);
  });

  it("refuses zip-slip names: parent segments, absolute paths, drive letters, backslashes", async () => {
    for (const name of ["../evil.jpg", "photos/../../evil.jpg", "/etc/passwd", "C:/Windows/evil.jpg", "..\\evil.jpg", "a\\..\\b.jpg"]) {
      expect(
        await refusal(() =>
          readZip(
            writeZip([
              { name: "fine.jpg", bytes: "x" },
              { name, bytes: "x" },
            ]),
            limits,
          ),
        ),
        name,
      ).toMatch(/points outside the zip/);
    }
  });

  it("refuses symlinks, other special files and encrypted entries", async () => {
    expect(await refusal(() => readZip(writeZip([{ name: "link.jpg", bytes: "/etc/passwd", unixMode: 0o120777 }]), limits))).toMatch(/symbolic link/);
    expect(await refusal(() => readZip(writeZip([{ name: "link.jpg", bytes: "/etc/passwd", unixMode: 0o120777, madeBy: 19 }]), limits))).toMatch(
      /symbolic link/,
    );
    // An MS-DOS archiver's attributes hold no Unix mode: the same bits mean nothing there.
    expect((await readZip(writeZip([{ name: "dos.jpg", bytes: "x", unixMode: 0o120777, madeBy: 0 }]), limits)).entries).toHaveLength(1);
    expect(await refusal(() => readZip(writeZip([{ name: "fifo", bytes: "", unixMode: 0o010644 }]), limits))).toMatch(/not a regular file/);
    expect(await refusal(() => readZip(writeZip([{ name: "secret.jpg", bytes: "x", encrypted: true }]), limits))).toMatch(/encrypted/);
  });

  it("refuses more entries than the limit, and declared sizes over the limit, before inflating anything", async () => {
    const many = writeZip(Array.from({ length: 6 }, (_, index) => ({ name: `f${index}.txt`, bytes: "x" })));
    expect(await refusal(() => readZip(many, { ...limits, maxEntries: 5 }))).toMatch(/holds 6 entries; an import takes at most 5/);
    expect((await readZip(many, { ...limits, maxEntries: 6 })).entries).toHaveLength(6);
    const big = writeZip([
      { name: "a.bin", bytes: new Uint8Array(600) },
      { name: "b.bin", bytes: new Uint8Array(600) },
    ]);
    expect(await refusal(() => readZip(big, { ...limits, maxTotalBytes: 1000 }))).toMatch(/unpacks to more than 1000 bytes/);
  });

  it("stops inflating a bomb that declares a small size, at that size", async () => {
    // 16 MB of zeros deflate to about 16 KB; the headers claim 100 bytes.
    const zip = await readZip(writeZip([{ name: "bomb.bin", bytes: new Uint8Array(16 * 1024 * 1024), declaredSize: 100 }]), limits);
    expect(zip.entries[0]!.size).toBe(100);
    expect(await refusal(() => zip.read(zip.entries[0]!))).toMatch(/unpacks to more than its declared 100 bytes/);
  });

  it("refuses an entry whose data does not match its checksum or declared size", async () => {
    const bytes = writeZip([{ name: "a.txt", bytes: "hello world", method: "store" }]);
    bytes[30 + "a.txt".length] = "j".charCodeAt(0);
    const zip = await readZip(bytes, limits);
    expect(await refusal(() => zip.read(zip.entries[0]!))).toMatch(/checksum/);
    const short = await readZip(writeZip([{ name: "b.txt", bytes: "hello world", declaredSize: 50 }]), limits);
    expect(await refusal(() => short.read(short.entries[0]!))).toMatch(/size or checksum/);
  });

  it("reads a ZIP64 archive (Info-ZIP's zip -fz forces its records on small files)", async () => {
    const folder = mkdtempSync(join(tmpdir(), "mnemo-zip64-"));
    try {
      writeFileSync(join(folder, "one.txt"), "first file\n".repeat(100));
      writeFileSync(join(folder, "two.txt"), "second");
      execFileSync("/usr/bin/zip", ["-q", "-fz", join(folder, "made.zip"), "one.txt", "two.txt"], { cwd: folder });
      const bytes = new Uint8Array(readFileSync(join(folder, "made.zip")));
      // The ZIP64 end of central directory record and its locator are there.
      expect(Buffer.from(bytes).includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
      expect(Buffer.from(bytes).includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
      const zip = await readZip(bytes, limits);
      expect(zip.entries.map((entry) => [entry.name, entry.size])).toEqual([
        ["one.txt", 1100],
        ["two.txt", 6],
      ]);
      expect(text(await zip.read(zip.entries[0]!))).toBe("first file\n".repeat(100));
      expect(text(await zip.read(zip.entries[1]!))).toBe("second");
      // The limits hold for ZIP64 as for any zip.
      expect(await refusal(() => readZip(bytes, { ...limits, maxEntries: 1 }))).toMatch(/holds 2 entries; an import takes at most 1/);
      expect(await refusal(() => readZip(bytes, { ...limits, maxTotalBytes: 1000 }))).toMatch(/unpacks to more than 1000 bytes/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a zip whose end record claims ZIP64 without its records, and repeated names", async () => {
    const bytes = Buffer.from(writeZip([{ name: "a.txt", bytes: "x" }]));
    bytes.writeUInt16LE(0xffff, bytes.length - 22 + 10);
    expect(await refusal(() => readZip(new Uint8Array(bytes), limits))).toMatch(/holds 65535 entries; an import takes at most 100/);
    expect(await refusal(() => readZip(new Uint8Array(bytes), { ...limits, maxEntries: 100_000 }))).toMatch(/is damaged/);
    expect(
      await refusal(() =>
        readZip(
          writeZip([
            { name: "a.txt", bytes: "x" },
            { name: "a.txt", bytes: "y" },
          ]),
          limits,
        ),
      ),
    ).toMatch(/holds “a.txt” twice/);
  });
});
