import "server-only";
import { z } from "zod";
import { attachMedia } from "../../archive/edit-record";
import { getConfig } from "../../config";
import { AppError } from "../../errors";
import { formatBytes } from "../../format";
import { attachMediaOutput } from "../api-schemas";
import { auditDetailsOf, id, recordIdInput, versionInput } from "./inputs";
import { defineOperation } from "./operation";

/** The largest body attach_media accepts: a file of MAX_UPLOAD_BYTES in base64 (4 characters for 3 bytes), and room for the rest. */
export function attachBodyLimit(maxUploadBytes = getConfig().MAX_UPLOAD_BYTES): number {
  return Math.ceil(maxUploadBytes / 3) * 4 + 64 * 1024;
}

export const attachMediaOperation = defineOperation({
  name: "attach_media",
  title: "Attach a file to a record",
  description:
    "Stores a file (base64 in `content`) in an image, media or scan field of a record you may edit, replacing the file there, with the version you read — as the record editor's upload does: " +
    "the type is recognised from the bytes and must suit the field (an image field takes PNG, JPEG, WebP or GIF; a media field its audio or video; a scan field TIFF, JPEG, PNG or PDF), at most MAX_UPLOAD_BYTES. " +
    "Images are verified and recordings processed by the background worker. Needs a token with the write scope.",
  method: "POST",
  path: "/records/{recordId}/media",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    version: versionInput,
    field: id.describe("The image, media or scan field's key (see read_record's `fields`)."),
    fileName: z.string().trim().min(1, "Name the file.").max(200, "At most 200 characters.").describe("The file's name, kept with it (e.g. obverse.jpg)."),
    content: z.base64("The file must be base64 (standard alphabet, padded).").min(1, "The file is empty.").describe("The file's bytes, base64-encoded."),
  }),
  output: attachMediaOutput,
  cost: 2,
  scope: "write",
  maxBodyBytes: () => attachBodyLimit(),
  writeHints: { idempotent: false, destructive: true },
  async run(input, context) {
    const { runtime, principal } = context;
    if (input.content.length > attachBodyLimit(runtime.media.maxBytes) - 64 * 1024) {
      const message = `The file is larger than ${formatBytes(runtime.media.maxBytes)} (MAX_UPLOAD_BYTES).`;
      throw new AppError("payload_too_large", message, { fieldErrors: { content: [message] } });
    }
    const file = { name: input.fileName, bytes: new Uint8Array(Buffer.from(input.content, "base64")) };
    const saved = await attachMedia(
      runtime.prisma,
      principal,
      { recordId: input.recordId, version: input.version, field: input.field, file, auditDetails: auditDetailsOf(context) },
      runtime.media,
    );
    return { ...saved, url: `${context.origin}/records/${saved.id}`, mediaUrl: `${context.origin}/api/media/${saved.mediaId}` };
  },
});
