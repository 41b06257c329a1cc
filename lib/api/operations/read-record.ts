import "server-only";
import { z } from "zod";
import { getRecord } from "../../archive/get-record";
import { readRecordOutput } from "../api-schemas";
import { recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

export const readRecordOperation = defineOperation({
  name: "read_record",
  title: "Read a record",
  description: "A record you may read: its fields and values, media, linked records and backlinks you may read, and its link.",
  method: "GET",
  path: "/records/{recordId}",
  pathParams: ["recordId"],
  input: z.strictObject({ recordId: recordIdInput }),
  output: readRecordOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const record = await getRecord(context.runtime.prisma, context.principal, input.recordId);
    return {
      id: record.id,
      title: record.title,
      version: record.version,
      section: { slug: record.section.slug, name: record.section.name },
      project: record.project,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
      fields: record.section.fields,
      values: record.values,
      media: Object.values(record.media).map((media) => ({
        id: media.id,
        kind: media.kind,
        mime: media.mime,
        view: media.view,
        durationSeconds: media.durationSeconds,
        imageCheck: media.imageCheck,
        url: `${context.origin}/api/media/${media.id}`,
      })),
      linked: Object.values(record.relations),
      backlinks: record.backlinks,
      url: `${context.origin}/records/${record.id}`,
    };
  },
});
