import "server-only";
import type { Principal } from "../../acl";
import { getConfig } from "../../config";
import type { PrismaClient } from "../../db/generated/client";
import { isAppError } from "../../errors";
import type { FieldDefinition } from "../field-definitions";
import { storeMedia } from "../media-storage";
import { sniffMediaType } from "../media-types";

/** A file an image/media cell names, found in the import's media source. */
export interface LocatedMediaFile {
  /** The name the stored media keeps (the file's own name, without its folder). */
  name: string;
  size: number;
  /** The file's first bytes, to tell its kind in a dry run. */
  head(): Promise<Uint8Array>;
  bytes(): Promise<Uint8Array>;
}

/**
 * Where an import's media files come from: a server folder an admin names (folder-media.ts) or a
 * zip uploaded with the file (zip-media.ts). `locate` answers the file a cell names, or the
 * problem (the words after "<field label> ", e.g. "names “x.jpg”, which is not in the zip").
 */
export interface MediaSource {
  locate(name: string): Promise<LocatedMediaFile | { problem: string }>;
}

/** The cell check, and the files it stored per row (to discard those of rows that fail). */
export type ImportMedia = ((field: FieldDefinition, name: string, row: number) => Promise<{ id?: string; problem?: string }>) & {
  storedByRow: Map<number, string[]>;
};

export function clipName(name: string): string {
  return name.slice(0, 80);
}

/**
 * Checks (dry run) or stores (the real run) the file an image/media cell names, the same way
 * whichever source holds it: it must be there, within the upload limit and of the field's kind.
 * Stored files are unattached media of the project until the batch that writes the row attaches
 * them. `source` is opened on the first cell, so an import naming no file never opens it.
 */
export function importMedia(
  prisma: PrismaClient,
  principal: Principal,
  projectId: string,
  openSource: () => Promise<MediaSource>,
  options: { storeMedia?: boolean },
): ImportMedia {
  let source: Promise<MediaSource> | null = null;
  const storedByRow = new Map<number, string[]>();
  const check = async (field: FieldDefinition, name: string, row: number): Promise<{ id?: string; problem?: string }> => {
    source ??= openSource();
    const located = await (await source).locate(name);
    if ("problem" in located) return { problem: located.problem };
    const maxBytes = getConfig().MAX_UPLOAD_BYTES;
    if (located.size > maxBytes) return { problem: `names a file larger than the upload limit` };
    const expected = field.type === "image" ? "image" : field.type === "media" ? field.mediaKind : null;
    try {
      if (!options.storeMedia) {
        const type = sniffMediaType(await located.head());
        if (!type || type.kind !== expected) {
          return { problem: `names “${clipName(name)}”, which is not ${expected === "image" ? "an image" : `an ${expected ?? ""} file`} Mnemo can store` };
        }
        return {};
      }
      const stored = await storeMedia(prisma, principal, {
        projectId,
        file: { name: located.name, bytes: await located.bytes() },
        expectedKind: expected ?? undefined,
        storageDir: getConfig().storageDir,
        maxBytes,
      });
      storedByRow.set(row, [...(storedByRow.get(row) ?? []), stored.id]);
      return { id: stored.id };
    } catch (error) {
      if (isAppError(error)) return { problem: `(“${clipName(name)}”): ${error.message}` };
      throw error;
    }
  };
  return Object.assign(check, { storedByRow });
}
