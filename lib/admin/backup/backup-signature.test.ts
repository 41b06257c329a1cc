import { createHash, createHmac } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { type BackupManifest, buildManifest, manifestEntry, parseManifest, signatureEntry, tableEntries, toJsonLines } from "./backup-format";
import { BackupKey, backupKeyId, checkSignature, signedManifestEntries } from "./backup-signature";

const here = new BackupKey(new Uint8Array(32).fill(7));
const elsewhere = new BackupKey(new Uint8Array(32).fill(9));
const header = {
  appVersion: "0.1.0",
  createdAt: "2026-12-08T04:00:00.000Z",
  project: { id: "p1", slug: "harbour", name: "Harbour" },
  counts: {},
  vectors: null,
};
const files = Object.values(tableEntries)
  .filter((name) => name !== tableEntries.vectors)
  .map((name) => ({ name, bytes: toJsonLines([{ name }]) }));

/** A signed archive's manifest and signature entries, as the restore reads them. */
function signed(key: BackupKey, entries = files) {
  const [manifestFile, signatureFile] = signedManifestEntries(buildManifest(header, entries, key.id), key);
  return { manifest: parseManifest(manifestFile!.bytes), manifestBytes: manifestFile!.bytes, signatureBytes: signatureFile!.bytes };
}
const check = (
  archive: { manifest: BackupManifest; manifestBytes: Uint8Array; signatureBytes: Uint8Array | undefined },
  keys: BackupKey[],
  trustUnsigned = false,
) => checkSignature({ ...archive, keys, trustUnsigned });
const encode = (text: string) => new TextEncoder().encode(text);

describe("backup signature", () => {
  it("names a key by the first 8 hex characters of its SHA-256, and shows nothing else of it", () => {
    expect(here.id).toBe(createHash("sha256").update(new Uint8Array(32).fill(7)).digest("hex").slice(0, 8));
    expect(backupKeyId(new Uint8Array(32).fill(7))).toBe(here.id);
    const hex = here.toHex();
    expect(hex).toBe("07".repeat(32));
    for (const shown of [JSON.stringify({ here }), String(here), `${here}`, inspect(here), inspect({ nested: { here } })]) {
      expect(shown).toContain(here.id);
      expect(shown).not.toContain(hex);
    }
    expect(BackupKey.fromHex(` ${hex.toUpperCase()}\n`, "--key").id).toBe(here.id);
    expect(() => BackupKey.fromHex("07".repeat(31), "--key")).toThrow(/--key is not a backup key: a key is 64 hex characters/);
    expect(() => BackupKey.fromHex("zz".repeat(32), "--key")).toThrow(/not a backup key/);
    expect(() => new BackupKey(new Uint8Array(16))).toThrow(/32 bytes/);
    const fresh = [BackupKey.generate(), BackupKey.generate()];
    expect(fresh[0]!.toHex()).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh[0]!.toHex()).not.toBe(fresh[1]!.toHex());
  });

  it("signs the manifest's exact bytes with HMAC-SHA-256 and names the key in the manifest", () => {
    const archive = signed(here);
    expect(archive.manifest.signing).toEqual({ algorithm: "HMAC-SHA-256", keyId: here.id });
    const signature = JSON.parse(new TextDecoder().decode(archive.signatureBytes)) as { algorithm: string; manifestHmac: string };
    expect(signature).toEqual({
      algorithm: "HMAC-SHA-256",
      manifestHmac: createHmac("sha256", Buffer.from(here.toHex(), "hex")).update(archive.manifestBytes).digest("hex"),
    });
    expect(signedManifestEntries(archive.manifest, here).map((entry) => entry.name)).toEqual([manifestEntry, signatureEntry]);
    expect(() => signedManifestEntries(archive.manifest, elsewhere)).toThrow(/names another key/);
    expect(check(archive, [here])).toEqual({ status: "signed", keyId: here.id });
    // Any of the keys given: the installation's first, then those given for the restore.
    expect(check(archive, [elsewhere, here])).toEqual({ status: "signed", keyId: here.id });
  });

  it("refuses an entry changed with its checksum recomputed: the manifest no longer matches the signature", () => {
    const archive = signed(here);
    const edited = files.map((file) => (file.name === tableEntries.records ? { ...file, bytes: toJsonLines([{ name: "edited" }]) } : file));
    // The forger recomputes every checksum but cannot sign without the key: the old signature stays.
    const forged = { ...signed(here, edited), signatureBytes: archive.signatureBytes };
    expect(() => check(forged, [here])).toThrow(
      /signature does not match its manifest \(key id [0-9a-f]{8}\): the archive was changed after it was made\. Nothing was restored\./,
    );
    // Signed again with a key of their own under this installation's key id: still refused.
    const wrongKey = {
      ...forged,
      signatureBytes: encode(
        JSON.stringify({ algorithm: "HMAC-SHA-256", manifestHmac: createHmac("sha256", "guess").update(forged.manifestBytes).digest("hex") }),
      ),
    };
    expect(() => check(wrongKey, [here])).toThrow(/does not match its manifest/);
    // …even when the admin trusts unsigned archives: a mismatch is evidence, not a missing signature.
    expect(() => check(forged, [here], true)).toThrow(/does not match its manifest/);
  });

  it("refuses a tampered or damaged signature, always", () => {
    const archive = signed(here);
    const signature = JSON.parse(new TextDecoder().decode(archive.signatureBytes)) as { manifestHmac: string };
    const flipped = `${signature.manifestHmac.slice(0, -1)}${signature.manifestHmac.endsWith("0") ? "1" : "0"}`;
    expect(() => check({ ...archive, signatureBytes: encode(JSON.stringify({ algorithm: "HMAC-SHA-256", manifestHmac: flipped })) }, [here], true)).toThrow(
      /does not match its manifest/,
    );
    for (const damaged of [
      "{",
      JSON.stringify({ algorithm: "HMAC-SHA-1", manifestHmac: signature.manifestHmac }),
      JSON.stringify({ algorithm: "HMAC-SHA-256", manifestHmac: "abc" }),
    ]) {
      expect(() => check({ ...archive, signatureBytes: encode(damaged) }, [here], true), damaged).toThrow(/signature\.json is damaged/);
    }
  });

  it("refuses an unsigned archive unless the admin trusts it, saying why", () => {
    const archive = signed(here);
    const version1 = { ...archive, manifest: { ...archive.manifest, formatVersion: 1, signing: undefined }, signatureBytes: undefined };
    expect(() => check(version1, [here])).toThrow(
      /not signed: made before Mnemo signed backups \(format version 1\).*--trust-unsigned.*Nothing was restored\./,
    );
    expect(check(version1, [here], true)).toEqual({
      status: "unverified",
      keyId: null,
      reason: "not signed: made before Mnemo signed backups (format version 1)",
    });
    const stripped = { ...archive, signatureBytes: undefined };
    expect(() => check(stripped, [here])).toThrow(/not signed: its signature\.json is missing.*--trust-unsigned/);
    expect(check(stripped, [here], true)).toMatchObject({ status: "unverified", keyId: here.id });
  });

  it("refuses an archive signed by another installation's key, naming both ids, and checks it with that key", () => {
    const archive = signed(elsewhere);
    expect(() => check(archive, [here])).toThrow(
      new RegExp(`signed by another installation's key \\(id ${elsewhere.id}; this installation's is ${here.id}\\)\\. Pass that installation's key with --key`),
    );
    const third = BackupKey.generate();
    expect(() => check(archive, [here, third])).toThrow(new RegExp(`nor any key given \\(${third.id}\\)`));
    expect(check(archive, [here, elsewhere])).toEqual({ status: "signed", keyId: elsewhere.id });
    expect(check(archive, [here], true)).toMatchObject({
      status: "unverified",
      keyId: elsewhere.id,
      reason: expect.stringMatching(/another installation's key/),
    });
  });
});
