import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { inspect } from "node:util";
import { z } from "zod";
import { AppError } from "../../errors";
import { type BackupManifest, manifestEntry, signatureEntry } from "./backup-format";

/**
 * A project backup's signature (docs/architecture.md, "Project backup and restore"): an
 * HMAC-SHA-256, under a key the installation holds (backup-key.ts), of manifest.json's exact
 * bytes, kept in `signature.json` beside it. The manifest lists every other entry's SHA-256 and
 * names the key by its id, so the signature covers every byte of the archive: an entry changed
 * with its checksum recomputed changes the manifest, and the manifest no longer matches the
 * signature. Only a holder of the key can sign again.
 */
export const signatureAlgorithm = "HMAC-SHA-256";

const keyBytes = 32;

/** The key's id: the first 8 hex characters of its SHA-256. Names the key; reveals nothing of it. */
export function backupKeyId(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 8);
}

/**
 * A backup signing key: 32 bytes. Its bytes never leave it except through `toHex` (for the
 * installation's own storage and `npm run backup:key`): JSON, `inspect` and string conversion
 * show its id only, so a key that reaches a log or a response by mistake is not disclosed.
 */
export class BackupKey {
  readonly id: string;
  readonly #bytes: Buffer;

  constructor(bytes: Uint8Array) {
    if (bytes.byteLength !== keyBytes)
      throw new AppError("bad_request", `A backup key is ${keyBytes} bytes (64 hex characters); this one is ${bytes.byteLength}.`);
    this.#bytes = Buffer.from(bytes);
    this.id = backupKeyId(this.#bytes);
  }

  /** 32 fresh random bytes. */
  static generate(): BackupKey {
    return new BackupKey(randomBytes(keyBytes));
  }

  /** A key as `npm run backup:key` prints it; `source` names where it came from in the refusal. */
  static fromHex(hex: string, source: string): BackupKey {
    const text = hex.trim();
    if (!/^[0-9a-fA-F]{64}$/.test(text))
      throw new AppError("bad_request", `${source} is not a backup key: a key is 64 hex characters, as \`npm run backup:key\` prints it.`);
    return new BackupKey(Buffer.from(text, "hex"));
  }

  /** HMAC-SHA-256 of `bytes` under this key. */
  sign(bytes: Uint8Array): Buffer {
    return createHmac("sha256", this.#bytes).update(bytes).digest();
  }

  toHex(): string {
    return this.#bytes.toString("hex");
  }

  toJSON(): { id: string } {
    return { id: this.id };
  }

  toString(): string {
    return `backup key ${this.id}`;
  }

  [inspect.custom](): string {
    return `BackupKey(${this.id})`;
  }
}

const signatureSchema = z.object({ algorithm: z.literal(signatureAlgorithm), manifestHmac: z.string().regex(/^[0-9a-f]{64}$/) });

/** manifest.json and signature.json as the archive holds them (`manifest.signing.keyId` must be `key`'s). */
export function signedManifestEntries(manifest: BackupManifest, key: BackupKey): { name: string; bytes: Uint8Array }[] {
  if (manifest.signing?.keyId !== key.id) throw new AppError("internal", "The manifest names another key than the one signing it.");
  const manifestBytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = { algorithm: signatureAlgorithm, manifestHmac: key.sign(manifestBytes).toString("hex") } satisfies z.infer<typeof signatureSchema>;
  return [
    { name: manifestEntry, bytes: manifestBytes },
    { name: signatureEntry, bytes: new TextEncoder().encode(`${JSON.stringify(signature, null, 2)}\n`) },
  ];
}

export type SignatureCheck =
  /** Signed with one of the keys given; `keyId` names which. */
  | { status: "signed"; keyId: string }
  /** Not checked, and restored because the admin trusts unsigned archives; `reason` says why it could not be checked. */
  | { status: "unverified"; keyId: string | null; reason: string };

export interface CheckSignatureInput {
  manifest: BackupManifest;
  /** manifest.json's bytes as the archive holds them. */
  manifestBytes: Uint8Array;
  /** signature.json's bytes, when the archive holds it. */
  signatureBytes: Uint8Array | undefined;
  /** The installation's key first, then any given for this restore (`--key`). */
  keys: readonly BackupKey[];
  /** Accept an archive whose signature cannot be checked: unsigned, or signed by a key not given. */
  trustUnsigned: boolean;
}

const nothingRestored = "Nothing was restored.";
const trustHint = "If you trust where the archive came from, restore it with --trust-unsigned (npm run import-project).";

/**
 * Checks the archive's signature with the keys given. Refused:
 * - unsigned (a backup of format version 1, made before backups were signed, or one whose
 *   signature.json is missing) and signed with a key not given — unless `trustUnsigned`;
 * - a signature that does not match the manifest under the key the manifest names, or a damaged
 *   signature.json — always: that is evidence the archive was changed after it was made.
 * The HMACs are compared in constant time.
 */
export function checkSignature(input: CheckSignatureInput): SignatureCheck {
  const { manifest, keys, trustUnsigned } = input;
  const unverified = (keyId: string | null, reason: string, refusal: string): SignatureCheck => {
    if (trustUnsigned) return { status: "unverified", keyId, reason };
    throw new AppError("bad_request", `${refusal} ${nothingRestored}`);
  };
  if (!manifest.signing) {
    const reason = `not signed: made before Mnemo signed backups (format version ${manifest.formatVersion})`;
    return unverified(null, reason, `This backup is ${reason}, so nothing shows it is unchanged since. ${trustHint}`);
  }
  const keyId = manifest.signing.keyId;
  if (!input.signatureBytes) {
    const reason = `not signed: its ${signatureEntry} is missing`;
    return unverified(keyId, reason, `This backup is ${reason}, so nothing shows its manifest is unchanged. ${trustHint}`);
  }
  const key = keys.find((candidate) => candidate.id === keyId);
  if (!key) {
    const own = keys[0] ? `; this installation's is ${keys[0].id}` : "";
    const given =
      keys.length > 1
        ? `, nor any key given (${keys
            .slice(1)
            .map((candidate) => candidate.id)
            .join(", ")})`
        : "";
    return unverified(
      keyId,
      `signed by another installation's key (id ${keyId}), which was not given`,
      `This backup was signed by another installation's key (id ${keyId}${own}${given}). Pass that installation's key with --key (\`npm run backup:key\` prints it there) or set MNEMO_BACKUP_KEY to it. ${trustHint}`,
    );
  }
  let signature: z.infer<typeof signatureSchema>;
  try {
    signature = signatureSchema.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(input.signatureBytes)));
  } catch {
    throw new AppError("bad_request", `The backup's ${signatureEntry} is damaged: it is not an ${signatureAlgorithm} signature. ${nothingRestored}`);
  }
  const expected = key.sign(input.manifestBytes);
  const actual = Buffer.from(signature.manifestHmac, "hex");
  if (actual.byteLength !== expected.byteLength || !timingSafeEqual(actual, expected)) {
    throw new AppError(
      "bad_request",
      `The backup's signature does not match its manifest (key id ${keyId}): the archive was changed after it was made. ${nothingRestored}`,
    );
  }
  return { status: "signed", keyId };
}
